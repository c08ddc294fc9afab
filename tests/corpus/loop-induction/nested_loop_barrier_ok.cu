// category: loop-induction
// expect: race-free
// needs: host-facts
// source: tiled stencils (a staged coefficient table, then passes over tiles)
// Every thread stages one coefficient, and a barrier orders the staging
// before both loops; the barrier inside the inner loop runs the same number
// of times in every thread, so no read in the loops meets the staging
// writes.
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 128

__global__ void passes(const float *coef, float *data, int tiles, int sweeps) {
  __shared__ float c[TILE];
  __shared__ float tile[TILE];
  c[threadIdx.x] = coef[threadIdx.x];
  __syncthreads();
  for (int t = 0; t < tiles; ++t) {
    for (int s = 0; s < sweeps; ++s) {
      tile[threadIdx.x] = data[t * TILE + threadIdx.x] * c[(threadIdx.x + s) % TILE];
      __syncthreads();
      data[t * TILE + threadIdx.x] = tile[(threadIdx.x + 1) % TILE];
      __syncthreads();
    }
  }
}

int main() {
  const int tiles = 64;
  float *coef, *data;
  cudaMalloc(&coef, TILE * sizeof(float));
  cudaMalloc(&data, tiles * TILE * sizeof(float));
  cudaMemset(coef, 0, TILE * sizeof(float));
  cudaMemset(data, 0, tiles * TILE * sizeof(float));
  passes<<<1, TILE>>>(coef, data, tiles, 3);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(coef);
  cudaFree(data);
  return 0;
}
