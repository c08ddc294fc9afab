// category: loop-induction
// needs: host-facts
// source: tiled stencils (a staged coefficient table, then passes over tiles)
// The inner loop has one barrier per sweep where it needs two: a fast
// thread's write of the tile in the next sweep meets a slow neighbour's
// read of the previous sweep's tile. The barrier count of an outer
// iteration depends on the inner trip count, so the outer loop's
// iterations are ordered only through it.
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 128

__global__ void passesOneBarrier(const float *coef, float *data, int tiles, int sweeps) {
  __shared__ float c[TILE];
  __shared__ float tile[TILE];
  c[threadIdx.x] = coef[threadIdx.x];
  __syncthreads();
  for (int t = 0; t < tiles; ++t) {
    for (int s = 0; s < sweeps; ++s) {
      tile[threadIdx.x] = data[t * TILE + threadIdx.x] * c[(threadIdx.x + s) % TILE]; // expect-race(a): intra-block
      __syncthreads();
      data[t * TILE + threadIdx.x] = tile[(threadIdx.x + 1) % TILE]; // expect-race(a): intra-block
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
  passesOneBarrier<<<1, TILE>>>(coef, data, tiles, 3);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(coef);
  cudaFree(data);
  return 0;
}
