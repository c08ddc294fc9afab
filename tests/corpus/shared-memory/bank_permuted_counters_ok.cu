// category: shared-memory
// expect: race-free
// source: per-thread byte counters laid out to avoid shared-memory bank conflicts
// Each thread of a 64-thread block owns a column of byte counters; its
// column is its index with the low four bits moved up two places and
// bits 4 and 5 moved to the bottom, a permutation of 0..63 built with `|`
// of fields that share no bit. Every thread counts into its own column
// only, so no barrier is needed until the columns are summed.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kThreads = 64;
constexpr int kBins = 64;

__global__ void countBytes(const unsigned *words, int count, unsigned *partial) {
  __shared__ unsigned char counters[kBins * kThreads];
  const unsigned column = ((threadIdx.x & ~(kThreads - 1u)) << 0) |
                          ((threadIdx.x & 15u) << 2) |
                          ((threadIdx.x & 48u) >> 4);
  unsigned char *mine = counters + column;
  for (int bin = 0; bin < kBins; ++bin)
    mine[bin * kThreads] = 0;
  for (int i = blockIdx.x * kThreads + threadIdx.x; i < count; i += gridDim.x * kThreads) {
    unsigned word = words[i];
    mine[(word & 63u) * kThreads] += 1;
    mine[((word >> 8) & 63u) * kThreads] += 1;
  }
  __syncthreads();
  unsigned sum = 0;
  for (int c = 0; c < kThreads; ++c)
    sum += counters[threadIdx.x * kThreads + c];
  partial[blockIdx.x * kBins + threadIdx.x] = sum;
}

int main() {
  const int count = 1 << 16;
  const int blocks = 32;
  unsigned *words, *partial;
  cudaMalloc(&words, count * sizeof(unsigned));
  cudaMalloc(&partial, blocks * kBins * sizeof(unsigned));
  cudaMemset(words, 0, count * sizeof(unsigned));
  countBytes<<<blocks, kThreads>>>(words, count, partial);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(words);
  cudaFree(partial);
  return 0;
}
