// category: barrier-loop
// source: the up-sweep of work-efficient (Blelloch) scans, over a count thread 0 keeps in shared memory
// tree_sum_shared_width_ok without the barrier after thread 0 clamps the
// width: the other threads read the width for the loop while thread 0 may
// still be writing it. Thread 0 reads its own clamped width, so where the
// others read the unclamped one they run more rounds of the loop than it
// does, and its barrier diverges. (A thread that reads the unclamped width
// walks past the tree; the bounds check keeps that from faulting on a GPU,
// where the race then goes unchecked.)
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
    width = kSegment; // expect-race(a): intra-block
  unsigned offset = 1;
  for (int d = width >> 1; d > 0; d >>= 1) { // expect-race(a): intra-block
    __syncthreads(); // expect-divergence: barrier-divergence
    if (tid < d) {
      unsigned ai = offset * (2 * tid + 1) - 1;
      unsigned bi = offset * (2 * tid + 2) - 1;
      if (bi < kSegment)
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
