// category: shared-memory
// expect: race-free
// source: chunked selective scans that carry a block's total from the
// thread holding the chunk's last valid element
// Thread 0 works out which thread and item hold the last element of the
// block's chunk (the last chunk may be short) and leaves both in shared
// memory; after the barrier every thread reads the same two values, so
// exactly one thread stores the block's total. CUB's BlockScan brings in
// libcu++'s declval (a variable of function-pointer type, called only in
// unevaluated operands), which is no call through a pointer and so no
// fence that could make the threads' reads differ.
#include <cstdio>
#include <cub/cub.cuh>
#include <cuda_runtime.h>

constexpr int kThreads = 128;
constexpr int kItems = 4;
constexpr int kChunk = kThreads * kItems;

struct ChunkShared {
  cub::BlockScan<float, kThreads>::TempStorage scan;
  int last_thread;
  int last_item;
};

__global__ void chunk_totals(const float *in, float *totals, int n) {
  __shared__ ChunkShared smem;
  int chunk_start = blockIdx.x * kChunk;
  if (threadIdx.x == 0) {
    int last = min(chunk_start + kChunk, n) - 1 - chunk_start;
    smem.last_thread = last / kItems;
    smem.last_item = last % kItems;
  }
  __syncthreads();
  int last_thread = smem.last_thread, last_item = smem.last_item;
  float items[kItems];
  for (int i = 0; i < kItems; ++i) {
    int l = chunk_start + threadIdx.x * kItems + i;
    items[i] = l < n ? in[l] : 0.f;
  }
  cub::BlockScan<float, kThreads>(smem.scan).InclusiveSum(items, items);
  if (threadIdx.x == last_thread)
    totals[blockIdx.x] = items[last_item];
}

int main() {
  const int n = 100000, chunks = (n + kChunk - 1) / kChunk;
  float *in, *totals;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&totals, chunks * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  chunk_totals<<<chunks, kThreads>>>(in, totals, n);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(in);
  cudaFree(totals);
  return 0;
}
