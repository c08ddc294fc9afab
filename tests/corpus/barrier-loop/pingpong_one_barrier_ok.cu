// category: barrier-loop
// expect: race-free
// Jacobi relaxation with two shared buffers used alternately: one barrier
// per sweep suffices because a sweep never writes the buffer it reads.
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 128

__global__ void jacobiPingPong(float *u, int sweeps) {
  __shared__ float s[2 * BLOCK];
  int t = threadIdx.x;
  int g = blockIdx.x * BLOCK + t;
  s[t] = u[g];
  __syncthreads();
  for (int it = 0; it < sweeps; ++it) {
    int cur = it % 2;
    int next = 1 - cur;
    float left = t > 0 ? s[cur * BLOCK + t - 1] : 0.0f;
    float right = t < BLOCK - 1 ? s[cur * BLOCK + t + 1] : 0.0f;
    s[next * BLOCK + t] = 0.5f * (left + right);
    __syncthreads();
  }
  u[g] = s[(sweeps % 2) * BLOCK + t];
}

int main() {
  const int blocks = 32, n = blocks * BLOCK;
  float *u;
  cudaMalloc(&u, n * sizeof(float));
  cudaMemset(u, 0, n * sizeof(float));
  jacobiPingPong<<<blocks, BLOCK>>>(u, 50);
  cudaDeviceSynchronize();
  cudaFree(u);
  printf("done\n");
  return 0;
}
