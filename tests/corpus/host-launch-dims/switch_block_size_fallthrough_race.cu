// category: host-launch-dims
// needs: host-facts
// source: reduction and scan wrappers that pick a kernel instantiation by
// block size with a switch
// `case 1024:` has no break: it prints a note and falls through to the
// 512-thread instantiation, which then runs with 1024 threads per block.
// Thread 512 of block 0 writes the slot thread 0 of block 1 writes. The
// 256 case is race-free, and its launch is reached from its own label only.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

template <unsigned kBlock>
__global__ void blockSlices(float *slices) {
  unsigned slot = blockIdx.x * kBlock + threadIdx.x;
  slices[slot] = (float)threadIdx.x; // expect-race(a): inter-block
}

void slicesOnDevice(float *slices, int threads, int blocks) {
  switch (threads) {
  case 1024:
    printf("1024 threads: using the 512 instantiation\n");
  case 512:
    blockSlices<512><<<blocks, threads>>>(slices);
    break;
  case 256:
    blockSlices<256><<<blocks, threads>>>(slices);
    break;
  default:
    break;
  }
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 1024;
  int blocks = 64;
  float *slices;
  cudaMalloc(&slices, (size_t)blocks * 1024 * sizeof(float));
  slicesOnDevice(slices, threads, blocks);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(slices);
  return 0;
}
