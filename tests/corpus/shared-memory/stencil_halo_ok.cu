// category: shared-memory
// expect: race-free
// A 1D stencil of radius 3 with halo cells: the first RADIUS threads of a
// block also load the halos on both sides, then a barrier separates the
// loads from the reads.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define RADIUS 3
#define BLOCK 128

__global__ void stencil1d(const float *in, float *out, int n) {
  __shared__ float tile[BLOCK + 2 * RADIUS];
  int t = threadIdx.x;
  int g = blockIdx.x * BLOCK + t;
  tile[t + RADIUS] = in[min(g, n - 1)];
  if (t < RADIUS) {
    tile[t] = in[max(g - RADIUS, 0)];
    tile[t + BLOCK + RADIUS] = in[min(g + BLOCK, n - 1)];
  }
  __syncthreads();
  float sum = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; ++k)
    sum += tile[t + RADIUS + k];
  if (g < n)
    out[g] = sum;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000;
  if (n <= 0)
    return 1;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  stencil1d<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  printf("done\n");
  return 0;
}
