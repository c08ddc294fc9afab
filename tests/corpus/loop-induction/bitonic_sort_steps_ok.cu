// category: loop-induction
// expect: race-free
// needs: host-facts
// source: bitonic sorting networks: a shared-memory sort of each block's run and a global merge step per stride
// sortRuns: the outer loop doubles the run size, the inner one halves the
// stride from size / 2 to 1; thread t orders the pair (pos, pos + stride)
// with pos = 2 * t - (t & (stride - 1)), through a device function that
// takes both elements by reference. The pairs of one step are disjoint
// (the low bits of t place it within a run, the rest pick the run), and a
// barrier separates the steps. mergeStep is one step over the whole array
// for strides at least a block's run, with the global index in place of
// t; the host launches one per stride, each after the last.
#include <cstdio>
#include <cuda_runtime.h>

constexpr unsigned kRun = 1024;

// One line, so that every access of the compare-exchange is on it.
__device__ void orderPair(unsigned &a, unsigned &b, bool ascending) {
  if ((a > b) == ascending) { unsigned t = a; a = b; b = t; }
}

__global__ void sortRuns(unsigned *keys) {
  __shared__ unsigned s[kRun];
  unsigned *run = keys + blockIdx.x * kRun;
  s[threadIdx.x] = run[threadIdx.x];
  s[threadIdx.x + kRun / 2] = run[threadIdx.x + kRun / 2];
  for (unsigned size = 2; size <= kRun; size <<= 1) {
    bool ascending = (threadIdx.x & (size / 2)) == 0;
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
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
