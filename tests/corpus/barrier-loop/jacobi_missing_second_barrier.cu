// category: barrier-loop
// Jacobi relaxation in one shared buffer. The barrier between computing and
// storing is there, but the one after the store is missing: a neighbour may
// read s[t] for the next sweep while it is being overwritten.
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void jacobi(float *u, int sweeps) {
  __shared__ float s[BLOCK + 2];
  int t = threadIdx.x + 1;
  int g = blockIdx.x * BLOCK + threadIdx.x;
  s[t] = u[g];
  if (threadIdx.x == 0) {
    s[0] = 0.0f;
    s[BLOCK + 1] = 0.0f;
  }
  __syncthreads();
  for (int it = 0; it < sweeps; ++it) {
    float v = 0.5f * (s[t - 1] + s[t + 1]); // expect-race(a): intra-warp
    __syncthreads();
    s[t] = v; // expect-race(a): intra-warp
  }
  __syncthreads();
  u[g] = s[t];
}

int main() {
  const int blocks = 16, n = blocks * BLOCK;
  float *u;
  cudaMalloc(&u, n * sizeof(float));
  cudaMemset(u, 0, n * sizeof(float));
  jacobi<<<blocks, BLOCK>>>(u, 100);
  cudaDeviceSynchronize();
  cudaFree(u);
  printf("done\n");
  return 0;
}
