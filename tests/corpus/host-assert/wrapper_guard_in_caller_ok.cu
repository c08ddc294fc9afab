// category: host-assert
// expect: race-free
// needs: host-facts
// source: HGRD host-code guided analysis (facts from the callers of a launch wrapper)
// A wrapper launches the shift; its caller rejects offsets smaller than the
// block, so the written and the read halves never overlap.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void shiftCopy(float *a, int offset) {
  a[threadIdx.x + offset] = a[threadIdx.x];
}

void shiftBuffer(float *buffer, int offset, int threads) {
  shiftCopy<<<1, threads>>>(buffer, offset);
}

int main(int argc, char **argv) {
  int offset = argc > 1 ? atoi(argv[1]) : 256;
  const int threads = 256;
  if (offset < threads || offset > 4096) {
    fprintf(stderr, "offset must be in [%d, 4096]\n", threads);
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
