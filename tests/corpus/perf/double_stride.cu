// category: perf
// expect: race-free
// needs: host-facts
// source: butterfly and pairwise steps over double-precision shared arrays
// 8-byte accesses are served a half warp at a time, each lane on two
// banks. vals[t] gives the 16 lanes of a half warp 16 bank pairs: no
// conflict. vals[2t mod 64] gives lanes t and t + 8 the same bank pair at
// different words: 2-way, paid in every iteration of the loop. The global
// load moves 256 bytes per warp, 8 sectors.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kThreads = 64;

__global__ void pairSums(const double *in, double *out, int rounds) {
  __shared__ double vals[kThreads];
  unsigned t = threadIdx.x;
  vals[t] = in[blockIdx.x * kThreads + t]; // expect-perf: banks 1, sectors 8/8
  __syncthreads();
  double sum = 0;
  for (int r = 0; r < rounds; ++r)
    sum += vals[(2 * t) % kThreads]; // expect-perf: banks 2
  out[blockIdx.x * kThreads + t] = sum; // expect-perf: sectors 8/8
}

int main() {
  const int blocks = 512;
  double *in, *out;
  cudaMalloc(&in, blocks * kThreads * sizeof(double));
  cudaMalloc(&out, blocks * kThreads * sizeof(double));
  cudaMemset(in, 0, blocks * kThreads * sizeof(double));
  pairSums<<<blocks, kThreads>>>(in, out, 8);
  cudaDeviceSynchronize();
  printf("summed %d blocks\n", blocks);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
