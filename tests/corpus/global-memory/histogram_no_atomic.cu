// category: global-memory
// A histogram that increments its bins with a plain read-modify-write:
// threads of different blocks that see the same value update one bin.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BINS 64

__global__ void histogram(const unsigned char *data, int n, int *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    bins[data[i] % BINS] += 1; // expect-race(a): inter-block
}

int main() {
  const int n = 1 << 20;
  unsigned char *host = static_cast<unsigned char *>(malloc(n));
  for (int i = 0; i < n; ++i)
    host[i] = static_cast<unsigned char>(rand());
  unsigned char *data;
  int *bins;
  cudaMalloc(&data, n);
  cudaMalloc(&bins, BINS * sizeof(int));
  cudaMemcpy(data, host, n, cudaMemcpyHostToDevice);
  cudaMemset(bins, 0, BINS * sizeof(int));
  histogram<<<(n + 255) / 256, 256>>>(data, n, bins);
  int result[BINS];
  cudaMemcpy(result, bins, sizeof(result), cudaMemcpyDeviceToHost);
  printf("bin 0: %d\n", result[0]);
  cudaFree(data);
  cudaFree(bins);
  free(host);
  return 0;
}
