// category: barrier-loop
// source: eigenvalue bisection for symmetric tridiagonal matrices: each
// thread of a block narrows its own interval round by round; a round
// counts the threads still busy with a work-efficient exclusive scan (an
// up-sweep and a down-sweep over `offset`, one barrier per step), and the
// rounds go on until that count is zero. How many rounds run depends on
// the matrix, so the scan's barriers sit in a loop of data-dependent trips
// while(true) around loops whose steps double and halve `offset`.
// expect: race-free
// needs: host-facts
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 256

// Eigenvalues of the tridiagonal matrix (diag, off) below x (Sturm count).
__device__ unsigned countBelow(const float *diag, const float *off, unsigned n, float x) {
  unsigned below = 0;
  float d = 1.0f;
  for (unsigned i = 0; i < n; ++i) {
    float o = i == 0 ? 0.0f : off[i - 1];
    d = diag[i] - x - (o * o) / (d == 0.0f ? 1e-30f : d);
    below += d < 0.0f;
  }
  return below;
}

// Exclusive prefix sum of flags[0, n) in place, n a power of two no larger
// than the block.
__device__ void exclusiveScan(unsigned *flags, unsigned n) {
  unsigned tid = threadIdx.x;
  unsigned offset = 1;
  for (unsigned d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      unsigned ai = offset * (2 * tid + 1) - 1;
      unsigned bi = offset * (2 * tid + 2) - 1;
      flags[bi] += flags[ai];
    }
    offset <<= 1;
  }
  if (tid == 0)
    flags[n - 1] = 0;
  for (unsigned d = 1; d < n; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      unsigned ai = offset * (2 * tid + 1) - 1;
      unsigned bi = offset * (2 * tid + 2) - 1;
      unsigned left = flags[ai];
      flags[ai] = flags[bi];
      flags[bi] += left;
    }
  }
  __syncthreads();
}

__global__ void bisectAll(const float *diag, const float *off, unsigned n, float lower,
                          float upper, float precision, float *eigenvalues, unsigned *rounds) {
  __shared__ float s_lo[THREADS];
  __shared__ float s_hi[THREADS];
  __shared__ unsigned s_flags[THREADS];
  __shared__ unsigned s_busy;
  unsigned tid = threadIdx.x;
  unsigned target = blockIdx.x * blockDim.x + tid;
  s_lo[tid] = lower;
  s_hi[tid] = upper;
  unsigned round = 0;
  while (true) {
    float lo = s_lo[tid], hi = s_hi[tid];
    unsigned busy = target < n && hi - lo > precision;
    if (busy) {
      float mid = 0.5f * (lo + hi);
      if (countBelow(diag, off, n, mid) > target)
        s_hi[tid] = mid;
      else
        s_lo[tid] = mid;
    }
    s_flags[tid] = busy;
    exclusiveScan(s_flags, blockDim.x);
    if (tid == blockDim.x - 1)
      s_busy = s_flags[tid] + busy;
    __syncthreads();
    unsigned remaining = s_busy;
    ++round;
    if (remaining == 0)
      break;
    __syncthreads();
  }
  if (target < n)
    eigenvalues[target] = 0.5f * (s_lo[tid] + s_hi[tid]);
  if (tid == 0)
    rounds[blockIdx.x] = round;
}

int main() {
  const unsigned n = 1000;
  const unsigned blocks = (n + THREADS - 1) / THREADS;
  float *diag, *off, *eigenvalues;
  unsigned *rounds;
  cudaMalloc(&diag, n * sizeof(float));
  cudaMalloc(&off, n * sizeof(float));
  cudaMalloc(&eigenvalues, n * sizeof(float));
  cudaMalloc(&rounds, blocks * sizeof(unsigned));
  cudaMemset(diag, 0, n * sizeof(float));
  cudaMemset(off, 0, n * sizeof(float));
  bisectAll<<<blocks, THREADS>>>(diag, off, n, -4.0f, 4.0f, 1e-5f, eigenvalues, rounds);
  unsigned first = 0;
  cudaMemcpy(&first, rounds, sizeof(unsigned), cudaMemcpyDeviceToHost);
  printf("rounds in block 0: %u\n", first);
  cudaFree(diag);
  cudaFree(off);
  cudaFree(eigenvalues);
  cudaFree(rounds);
  return 0;
}
