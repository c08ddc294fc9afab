// category: host-aliasing
// source: a merge sort's host driver: keys and values ping-pong between a
// destination and a scratch buffer, chosen by the parity of the stage
// count, and exchanged through one temporary after every merge pass.
// The exchange keeps the four buffers apart, but the in-place pass before
// the loop passes the scratch keys as both the input and the output of a
// kernel that reads its neighbour: that launch races.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void mergePass(unsigned *dst, const unsigned *src, unsigned n, unsigned width) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + width < n)
    dst[i] = min(src[i], src[i + width]); // expect-race(inplace): inter-block
}

void sortPasses(unsigned *dstKey, unsigned *bufKey, unsigned *dstVal, unsigned *bufVal,
                unsigned n) {
  unsigned stages = 0;
  for (unsigned w = 256; w < n; w <<= 1)
    ++stages;
  unsigned *ikey, *okey, *ival, *oval;
  if (stages & 1) {
    ikey = bufKey, okey = dstKey, ival = bufVal, oval = dstVal;
  } else {
    ikey = dstKey, okey = bufKey, ival = dstVal, oval = bufVal;
  }
  mergePass<<<n / 256, 256>>>(ikey, ikey, n, 1);
  for (unsigned w = 256; w < n; w <<= 1) {
    mergePass<<<n / 256, 256>>>(okey, ikey, n, w);
    mergePass<<<n / 256, 256>>>(oval, ival, n, w);
    unsigned *t;
    t = ikey, ikey = okey, okey = t;
    t = ival, ival = oval, oval = t;
  }
}

int main() {
  const unsigned n = 1 << 16;
  const size_t bytes = n * sizeof(unsigned);
  unsigned *dstKey, *bufKey, *dstVal, *bufVal;
  cudaMalloc(&dstKey, bytes);
  cudaMalloc(&bufKey, bytes);
  cudaMalloc(&dstVal, bytes);
  cudaMalloc(&bufVal, bytes);
  cudaMemset(bufKey, 0, bytes);
  cudaMemset(dstKey, 0, bytes);
  sortPasses(dstKey, bufKey, dstVal, bufVal, n);
  cudaDeviceSynchronize();
  cudaFree(dstKey);
  cudaFree(bufKey);
  cudaFree(dstVal);
  cudaFree(bufVal);
  printf("done\n");
  return 0;
}
