// category: loop-induction
// expect: race-free
// source: stream compaction in eigenvalue bisection and other work-efficient (Blelloch) scans: an up-sweep, then a down-sweep that halves its offset while its width doubles
// Each block turns per-element flags into inclusive prefix counts over a
// width the host rounds up to a power of two (the race-freedom does not
// depend on that: any width gives disjoint steps). The up-sweep halves `half` while it doubles
// `stride`, so it leaves `stride` above half the width. The down-sweep
// halves `stride` first in each step while `span` doubles from 2 below the
// width: `stride` never reaches 0 there (both are powers of two), and in one
// step thread t reads element stride*(t+1)-1 and adds it into the element
// stride/2 further on, which no other thread of that step touches.
#include <cstdio>
#include <cuda_runtime.h>

constexpr unsigned kThreads = 256;
constexpr unsigned kCapacity = 2 * kThreads;

__global__ void prefixCounts(const unsigned char *flags, unsigned *counts, unsigned width) {
  __shared__ unsigned tree[kCapacity];
  unsigned tid = threadIdx.x, threads = blockDim.x, segment = 2 * threads;
  const unsigned char *mine = flags + blockIdx.x * segment;
  tree[tid] = tid < width ? mine[tid] : 0;
  tree[tid + threads] = tid + threads < width ? mine[tid + threads] : 0;

  unsigned stride = 1;
  for (unsigned half = width >> 1; half > 0; half >>= 1) {
    __syncthreads();
    if (tid < half) {
      unsigned left = stride * (2 * tid + 1) - 1;
      unsigned right = stride * (2 * tid + 2) - 1;
      tree[right] += tree[left];
    }
    stride <<= 1;
  }

  for (unsigned span = 2; span < width; span <<= 1) {
    stride >>= 1;
    __syncthreads();
    if (tid < span - 1) {
      unsigned from = stride * (tid + 1) - 1;
      unsigned into = from + (stride >> 1);
      tree[into] += tree[from];
    }
  }
  __syncthreads();
  if (tid < width)
    counts[blockIdx.x * segment + tid] = tree[tid];
  if (tid + threads < width)
    counts[blockIdx.x * segment + tid + threads] = tree[tid + threads];
}

int main(int argc, char **argv) {
  const unsigned blocks = 8;
  unsigned count = argc > 1 ? 300 : kCapacity;
  unsigned width = 1;
  while (width < count)
    width <<= 1;
  unsigned char *flags;
  unsigned *counts;
  cudaMalloc(&flags, blocks * kCapacity);
  cudaMalloc(&counts, blocks * kCapacity * sizeof(unsigned));
  cudaMemset(flags, 1, blocks * kCapacity);
  prefixCounts<<<blocks, kThreads>>>(flags, counts, width);
  unsigned last = 0;
  cudaMemcpy(&last, counts + width - 1, sizeof(last), cudaMemcpyDeviceToHost);
  printf("%u of %u\n", last, width);
  cudaFree(flags);
  cudaFree(counts);
  return 0;
}
