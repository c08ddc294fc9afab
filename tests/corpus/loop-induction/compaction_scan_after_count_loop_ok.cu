// category: loop-induction
// source: eigenvalue bisection kernels that refine intervals in rounds,
// one interval per thread, and compact the surviving intervals with a
// work-efficient scan over a block-wide count kept in shared memory
// Race-free. Each round, the threads holding an interval count the
// entries below its midpoint with a loop of their own (only those threads
// run it), then the block scans the flags with an up-sweep and a
// down-sweep whose sizes come from the shared count. The counting loop has
// no barrier, so every thread reaches the scan after the same barriers
// whether it ran the loop or not: the count each thread reads there is the
// one thread 0 stored before the last barrier, the sweeps run the same
// number of steps in every thread, and `offset` is halved back exactly as
// far as it was doubled.
// expect: race-free
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define ROUND_THREADS 256

__device__ void scanFlags(unsigned int *flags, unsigned int width) {
  unsigned int offset = 1;
  unsigned int tid = threadIdx.x;
  for (int d = width >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      unsigned int left = offset * (2 * tid + 1) - 1;
      unsigned int right = offset * (2 * tid + 2) - 1;
      flags[right] += flags[left];
    }
    offset <<= 1;
  }
  for (int d = 2; d < width; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (tid < d - 1) {
      unsigned int left = offset * (tid + 1) - 1;
      unsigned int right = left + (offset >> 1);
      flags[right] += flags[left];
    }
  }
  __syncthreads();
}

__global__ void refineIntervals(const float *values, unsigned int n, float *pivots,
                                unsigned int *below) {
  __shared__ unsigned int flags[ROUND_THREADS + 1];
  __shared__ unsigned int active;
  __shared__ unsigned int width;
  __shared__ unsigned int settled;
  unsigned int tid = threadIdx.x;
  if (tid == 0) {
    active = 1;
    width = 2;
  }
  __syncthreads();
  while (true) {
    if (tid == 0)
      settled = 1;
    __syncthreads();
    unsigned int count = 0;
    if (tid < active) {
      float pivot = pivots[tid];
      for (unsigned int k = 0; k < n; ++k)
        count += values[k] < pivot ? 1 : 0;
      if (count > 0 && count < n)
        settled = 0;
    }
    flags[tid + 1] = (tid < active && count > 0) ? 1 : 0;
    __syncthreads();
    if (settled == 1 || width > ROUND_THREADS / 2)
      break;
    scanFlags(flags + 1, width);
    if (tid < active)
      below[tid] = flags[tid + 1] + count;
    __syncthreads();
    if (tid == 0) {
      active = width;
      width = 2 * width;
    }
    __syncthreads();
  }
}

int main(int argc, char **argv) {
  unsigned int n = argc > 1 ? (unsigned int)atoi(argv[1]) : 1024;
  float *values, *pivots;
  unsigned int *below;
  cudaMalloc(&values, n * sizeof(float));
  cudaMalloc(&pivots, ROUND_THREADS * sizeof(float));
  cudaMalloc(&below, ROUND_THREADS * sizeof(unsigned int));
  cudaMemset(values, 0, n * sizeof(float));
  cudaMemset(pivots, 0, ROUND_THREADS * sizeof(float));
  refineIntervals<<<1, ROUND_THREADS>>>(values, n, pivots, below);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
