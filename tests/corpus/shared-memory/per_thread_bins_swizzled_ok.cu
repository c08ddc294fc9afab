// category: shared-memory
// expect: race-free
// needs: host-facts
// source: byte-counter histogram kernels that give each thread a column of a shared table and permute the column to spread the threads over the banks
// Each block keeps one byte counter per (bin, thread): bin b of thread t
// sits at row b, column slot(t), where the column moves the thread's low
// four index bits up two places and its next two bits down to the bottom
// (`(t & ~63) | ((t & 15) << 2) | ((t & 48) >> 4)`). That is a bijection
// on 0..63, so with the 64-thread blocks the launch uses no two threads
// share a column and the counts need no atomics. The three `|` operands
// have no bit in common, which keeps the column exact. After a barrier,
// thread b sums row b.
// Without the launch, a block of 128 threads would give thread 64 the
// column that bin 1 of thread 0 uses.
#include <cstdio>
#include <cuda_runtime.h>

constexpr unsigned kBins = 64;
constexpr unsigned kThreads = 64;

__device__ void countByte(unsigned char *column, unsigned value) {
  column[(value & (kBins - 1)) * kThreads]++;
}

__global__ void countBins(unsigned *partial, const unsigned *words, unsigned count) {
  __shared__ unsigned char table[kBins * kThreads];
  const unsigned t = threadIdx.x;
  const unsigned slot = (t & ~63u) | ((t & 15u) << 2) | ((t & 48u) >> 4);
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
