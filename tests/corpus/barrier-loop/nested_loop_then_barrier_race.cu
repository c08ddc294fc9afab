// category: barrier-loop
// source: a bitonic sort in shared memory: merge stages of growing size,
// each a loop of halving strides with a barrier per step, then the final
// merge over the whole array, copied out too early (sorting-network shape)
// The results are copied out without the barrier after the final merge:
// a thread reads its elements while slower threads still swap them in
// the last step.
#include <cstdio>
#include <cuda_runtime.h>
#define ELEMENTS 1024

__device__ void orderPair(unsigned *s, unsigned lo, unsigned hi, bool up) {
  unsigned a = s[lo], b = s[hi];
  if ((a > b) == up) {
    s[lo] = b, s[hi] = a; // expect-race(a): intra-block
  }
}

__global__ void sortInBlock(unsigned *data, unsigned length) {
  __shared__ unsigned s[ELEMENTS];
  unsigned t = threadIdx.x;
  s[t] = data[t];
  s[t + ELEMENTS / 2] = data[t + ELEMENTS / 2];
  for (unsigned size = 2; size < length; size <<= 1) {
    bool up = (t & (size / 2)) == 0;
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned lo = 2 * t - (t & (stride - 1));
      orderPair(s, lo, lo + stride, up);
    }
  }
  for (unsigned stride = length / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    unsigned lo = 2 * t - (t & (stride - 1));
    orderPair(s, lo, lo + stride, true);
  }
  data[t] = s[t], data[t + ELEMENTS / 2] = s[t + ELEMENTS / 2]; // expect-race(a): intra-block
}

int main() {
  unsigned *data;
  cudaMalloc(&data, ELEMENTS * sizeof(unsigned));
  cudaMemset(data, 0, ELEMENTS * sizeof(unsigned));
  sortInBlock<<<1, ELEMENTS / 2>>>(data, ELEMENTS);
  unsigned first = 0;
  cudaMemcpy(&first, data, sizeof(unsigned), cudaMemcpyDeviceToHost);
  printf("%u\n", first);
  cudaFree(data);
  return 0;
}
