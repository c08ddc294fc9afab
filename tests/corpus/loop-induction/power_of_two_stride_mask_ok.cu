// category: loop-induction
// expect: race-free
// needs: host-facts
// source: the merge step of a bitonic sort in shared memory
// Each thread compares the pair (pos, pos + stride) with
// pos = 2 * t - (t & (stride - 1)): for a power-of-two stride the low bits
// of t pick the place within a run and the rest the run, so the pairs of
// one step are disjoint. The stride starts at a power of two and halves
// (`>>= 1`), so it stays one; a barrier separates the steps.
#include <cstdio>
#include <cuda_runtime.h>

constexpr unsigned kItems = 1024;

__global__ void mergeRuns(unsigned *keys) {
  __shared__ unsigned s[kItems];
  unsigned *block_keys = keys + blockIdx.x * kItems;
  s[threadIdx.x] = block_keys[threadIdx.x];
  s[threadIdx.x + kItems / 2] = block_keys[threadIdx.x + kItems / 2];
  for (unsigned stride = kItems / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    // One line, so that every access of the compare-exchange is on it.
    unsigned low = s[pos], high = s[pos + stride]; s[pos] = min(low, high); s[pos + stride] = max(low, high);
  }
  __syncthreads();
  block_keys[threadIdx.x] = s[threadIdx.x];
  block_keys[threadIdx.x + kItems / 2] = s[threadIdx.x + kItems / 2];
}

int main() {
  const int blocks = 8;
  unsigned *keys;
  cudaMalloc(&keys, blocks * kItems * sizeof(unsigned));
  cudaMemset(keys, 0, blocks * kItems * sizeof(unsigned));
  mergeRuns<<<blocks, kItems / 2>>>(keys);
  unsigned first = 0;
  cudaMemcpy(&first, keys, sizeof(unsigned), cudaMemcpyDeviceToHost);
  printf("%u\n", first);
  cudaFree(keys);
  return 0;
}
