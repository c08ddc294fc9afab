// category: shared-memory
// A three-point smoothing stencil over a shared tile. The tile is filled and
// read without a barrier, so a thread may read its neighbours' slots before
// they are written.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE 256

__global__ void smooth3(const float *in, float *out, int n) {
  __shared__ float tile[TILE];
  int t = threadIdx.x;
  int g = blockIdx.x * TILE + t;
  tile[t] = g < n ? in[g] : 0.0f; // expect-race(a): intra-warp
  if (t > 0 && t < TILE - 1 && g < n)
    out[g] = (tile[t - 1] + tile[t] + tile[t + 1]) / 3.0f; // expect-race(a): intra-warp
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  int blocks = (n + TILE - 1) / TILE;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  smooth3<<<blocks, TILE>>>(in, out, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  printf("smoothed %d values\n", n);
  return 0;
}
