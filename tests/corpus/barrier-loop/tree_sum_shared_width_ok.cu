// category: barrier-loop
// expect: race-free
// source: the up-sweep of work-efficient (Blelloch) scans, over a count thread 0 keeps in shared memory
// Each block sums its segment with the up-sweep of a work-efficient scan:
// in the step that halves d, thread t < d adds element offset*(2t+1)-1
// into offset*(2t+2)-1. The width comes from the block's count, clamped by
// thread 0 in shared memory; every thread reads it between the same
// barriers, so the steps are the same for the whole block, and within a
// step the two indices of different threads never meet (the factor
// `offset` is common to both, and 2t+2 is even where 2t'+1 is odd).
#include <cstdio>
#include <cuda_runtime.h>

constexpr unsigned kThreads = 256;
constexpr unsigned kSegment = 2 * kThreads;

__global__ void treeSums(const unsigned *values, const unsigned *counts, unsigned *sums) {
  __shared__ unsigned tree[kSegment];
  __shared__ unsigned width;
  unsigned tid = threadIdx.x;
  tree[tid] = values[blockIdx.x * kSegment + tid];
  tree[tid + kThreads] = values[blockIdx.x * kSegment + tid + kThreads];
  if (tid == 0)
    width = counts[blockIdx.x];
  __syncthreads();
  if (tid == 0 && width > kSegment)
    width = kSegment;
  __syncthreads();
  unsigned offset = 1;
  for (int d = width >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      unsigned ai = offset * (2 * tid + 1) - 1;
      unsigned bi = offset * (2 * tid + 2) - 1;
      tree[bi] += tree[ai];
    }
    offset <<= 1;
  }
  __syncthreads();
  if (tid == 0 && width > 0)
    sums[blockIdx.x] = tree[width - 1];
}

int main() {
  const unsigned blocks = 4;
  unsigned counts[blocks] = {512, 256, 64, 1024};
  unsigned *values, *dcounts, *sums;
  cudaMalloc(&values, blocks * kSegment * sizeof(unsigned));
  cudaMalloc(&dcounts, sizeof(counts));
  cudaMalloc(&sums, blocks * sizeof(unsigned));
  cudaMemset(values, 0, blocks * kSegment * sizeof(unsigned));
  cudaMemcpy(dcounts, counts, sizeof(counts), cudaMemcpyHostToDevice);
  treeSums<<<blocks, kThreads>>>(values, dcounts, sums);
  unsigned host[blocks];
  cudaMemcpy(host, sums, sizeof(host), cudaMemcpyDeviceToHost);
  printf("%u\n", host[0]);
  return 0;
}
