// category: global-memory
// A __device__ counter incremented with a plain read-modify-write by every
// thread that finds a hit.
#include <cstdio>
#include <cuda_runtime.h>

__device__ int g_hits;

__global__ void countHits(const float *samples, int n, float threshold) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && samples[i] > threshold)
    g_hits = g_hits + 1; // expect-race(a): inter-block
}

int main() {
  const int n = 1 << 16;
  float *samples;
  cudaMalloc(&samples, n * sizeof(float));
  cudaMemset(samples, 0, n * sizeof(float));
  int zero = 0;
  cudaMemcpyToSymbol(g_hits, &zero, sizeof(int));
  countHits<<<n / 256, 256>>>(samples, n, -1.0f);
  int hits;
  cudaMemcpyFromSymbol(&hits, g_hits, sizeof(int));
  printf("%d hits\n", hits);
  cudaFree(samples);
  return 0;
}
