// category: loop-induction
// needs: host-facts
// source: the merge step of a bitonic sort in shared memory
// The same merge with a stride that starts at 384, not a power of two: at
// stride 3 the mask `stride - 1` is 2, and threads 1 and 2 both take
// pos = 2, so two threads order the same pair at once.
#include <cstdio>
#include <cuda_runtime.h>

constexpr unsigned kItems = 1024;

__global__ void mergeRuns(unsigned *keys) {
  __shared__ unsigned s[kItems];
  unsigned *block_keys = keys + blockIdx.x * kItems;
  s[threadIdx.x] = block_keys[threadIdx.x];
  s[threadIdx.x + kItems / 2] = block_keys[threadIdx.x + kItems / 2];
  for (unsigned stride = 3 * kItems / 8; stride > 0; stride >>= 1) {
    __syncthreads();
    unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    // One line, so that every access of the compare-exchange is on it.
    unsigned low = s[pos], high = s[pos + stride]; s[pos] = min(low, high); s[pos + stride] = max(low, high); // expect-race(a): intra-warp
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
