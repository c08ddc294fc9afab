// category: shared-memory
// needs: host-facts
// source: byte-counter histogram kernels that give each thread a column of a shared table and permute the column to spread the threads over the banks
// The column permutation of per_thread_bins_swizzled_ok.cu with the two
// middle index bits moved down five places instead of four: `(t & 48) >>
// 5` keeps only bit 5, so threads 0 and 16 of a warp get column 0 and
// count their bytes into the same counters without atomics.
#include <cstdio>
#include <cuda_runtime.h>

constexpr unsigned kBins = 64;
constexpr unsigned kThreads = 64;

__device__ void countByte(unsigned char *column, unsigned value) {
  column[(value & (kBins - 1)) * kThreads]++; // expect-race(a): intra-warp
}

__global__ void countBins(unsigned *partial, const unsigned *words, unsigned count) {
  __shared__ unsigned char table[kBins * kThreads];
  const unsigned t = threadIdx.x;
  const unsigned slot = (t & ~63u) | ((t & 15u) << 2) | ((t & 48u) >> 5);
  unsigned char *column = table + slot;
  for (unsigned i = 0; i < kBins / 4; ++i)
    reinterpret_cast<unsigned *>(table)[t + i * kThreads] = 0;
  __syncthreads();
  for (unsigned pos = blockIdx.x * blockDim.x + t; pos < count; pos += blockDim.x * gridDim.x) {
    unsigned word = words[pos];
    countByte(column, word >> 2);
    countByte(column, word >> 10);
    countByte(column, word >> 18);
  }
  __syncthreads();
  if (t < kBins) {
    unsigned sum = 0;
    for (unsigned i = 0; i < kThreads; ++i)
      sum += table[t * kThreads + i];
    partial[blockIdx.x * kBins + t] = sum;
  }
}

int main() {
  const unsigned count = 1 << 16, blocks = 32;
  unsigned *words, *partial;
  cudaMallocManaged(&words, count * sizeof(unsigned));
  cudaMallocManaged(&partial, blocks * kBins * sizeof(unsigned));
  for (unsigned i = 0; i < count; ++i)
    words[i] = i * 2654435761u;
  countBins<<<blocks, kThreads>>>(partial, words, count);
  cudaDeviceSynchronize();
  unsigned total = 0;
  for (unsigned i = 0; i < blocks * kBins; ++i)
    total += partial[i];
  printf("counted %u bytes\n", total);
  cudaFree(words);
  cudaFree(partial);
  return 0;
}
