// category: grid-sync
// Jacobi sweeps over a global array in one launch: each block updates its
// own segment but reads its neighbours' boundary values, and nothing orders
// one sweep's writes before the next sweep's reads across blocks.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void sweeps(float *u, float *v, int n, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int s = 0; s < count; ++s) {
    if (i > 0 && i < n - 1)
      v[i] = 0.5f * (u[i - 1] + u[i + 1]); // expect-race(a): inter-block
    __syncthreads();
    if (i > 0 && i < n - 1)
      u[i] = v[i]; // expect-race(a): inter-block
    __syncthreads();
  }
}

int main() {
  const int n = 1 << 14;
  float *u, *v;
  cudaMalloc(&u, n * sizeof(float));
  cudaMalloc(&v, n * sizeof(float));
  cudaMemset(u, 0, n * sizeof(float));
  sweeps<<<n / 256, 256>>>(u, v, n, 10);
  cudaDeviceSynchronize();
  cudaFree(u);
  cudaFree(v);
  printf("done\n");
  return 0;
}
