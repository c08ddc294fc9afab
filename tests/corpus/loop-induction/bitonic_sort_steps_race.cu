// category: loop-induction
// source: bitonic sorting networks: a shared-memory sort of each block's run and a global merge step per stride
// The sort of bitonic_sort_steps_ok with the barrier in the outer loop
// only: the steps of one run size are not separated, so a warp still at
// stride 2 orders elements that another warp, already at stride 1, reads
// and writes. The pairs of one step stay disjoint; the race is between
// steps. mergeStep, one launch per stride, is race-free.
#include <cstdio>
#include <cuda_runtime.h>

constexpr unsigned kRun = 1024;

// One line, so that every access of the compare-exchange is on it.
__device__ void orderPair(unsigned &a, unsigned &b, bool ascending) {
  if ((a > b) == ascending) { unsigned t = a; a = b; b = t; } // expect-race(a): intra-block
}

__global__ void sortRuns(unsigned *keys) {
  __shared__ unsigned s[kRun];
  unsigned *run = keys + blockIdx.x * kRun;
  s[threadIdx.x] = run[threadIdx.x];
  s[threadIdx.x + kRun / 2] = run[threadIdx.x + kRun / 2];
  for (unsigned size = 2; size <= kRun; size <<= 1) {
    bool ascending = (threadIdx.x & (size / 2)) == 0;
    __syncthreads();
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      orderPair(s[pos], s[pos + stride], ascending);
    }
  }
  __syncthreads();
  run[threadIdx.x] = s[threadIdx.x];
  run[threadIdx.x + kRun / 2] = s[threadIdx.x + kRun / 2];
}

__global__ void mergeStep(unsigned *keys, unsigned size, unsigned stride) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  bool ascending = (i & (size / 2)) == 0;
  unsigned pos = 2 * i - (i & (stride - 1));
  unsigned a = keys[pos], b = keys[pos + stride];
  if ((a > b) == ascending) {
    keys[pos] = b;
    keys[pos + stride] = a;
  }
}

int main() {
  const unsigned n = 1u << 16;
  unsigned *keys;
  cudaMalloc(&keys, n * sizeof(unsigned));
  cudaMemset(keys, 0, n * sizeof(unsigned));
  sortRuns<<<n / kRun, kRun / 2>>>(keys);
  for (unsigned size = 2 * kRun; size <= n; size <<= 1)
    for (unsigned stride = size / 2; stride >= kRun; stride >>= 1)
      mergeStep<<<n / 2 / 256, 256>>>(keys, size, stride);
  cudaDeviceSynchronize();
  unsigned first = 0;
  cudaMemcpy(&first, keys, sizeof(unsigned), cudaMemcpyDeviceToHost);
  printf("%u\n", first);
  cudaFree(keys);
  return 0;
}
