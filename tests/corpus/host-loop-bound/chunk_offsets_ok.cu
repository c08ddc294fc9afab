// category: host-loop-bound
// expect: race-free
// needs: host-facts
// Processes a long array in chunks; each launch handles one chunk and also
// writes a per-chunk header at position chunk (< chunks <= first data
// index), which the loop bound keeps apart from the data region.
#include <cstdio>
#include <cuda_runtime.h>

#define CHUNK 4096
#define HEADER 64

__global__ void processChunk(float *buf, int chunk) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[HEADER + chunk * CHUNK + i] = 2.0f * i;
  if (i == 0)
    buf[chunk] = static_cast<float>(chunk);
}

int main() {
  const int chunks = 32;
  float *buf;
  cudaMalloc(&buf, (HEADER + chunks * CHUNK) * sizeof(float));
  for (int c = 0; c < chunks; ++c)
    processChunk<<<CHUNK / 256, 256>>>(buf, c);
  cudaDeviceSynchronize();
  cudaFree(buf);
  printf("done\n");
  return 0;
}
