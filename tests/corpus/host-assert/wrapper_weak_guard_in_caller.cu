// category: host-assert
// source: HGRD host-code guided analysis (facts from the callers of a launch wrapper)
// The same wrapper, but the caller only rejects negative offsets: an offset
// smaller than the block makes a thread read what another one writes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void shiftCopy(float *a, int offset) {
  a[threadIdx.x + offset] = a[threadIdx.x]; // expect-race(a): intra-warp
}

void shiftBuffer(float *buffer, int offset, int threads) {
  shiftCopy<<<1, threads>>>(buffer, offset);
}

int main(int argc, char **argv) {
  int offset = argc > 1 ? atoi(argv[1]) : 256;
  const int threads = 256;
  if (offset < 0 || offset > 4096) {
    fprintf(stderr, "offset must be in [0, 4096]\n");
    return 1;
  }
  float *buffer;
  cudaMalloc(&buffer, (threads + 4096) * sizeof(float));
  shiftBuffer(buffer, offset, threads);
  cudaDeviceSynchronize();
  cudaFree(buffer);
  printf("done\n");
  return 0;
}
