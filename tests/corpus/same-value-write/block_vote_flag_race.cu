// category: same-value-write
// source: suppression passes that mark a candidate kept only when every
// thread of its block votes to keep it, through __syncthreads_and
// As in the race-free version, except that where the block does not agree
// each thread stores its own vote rather than the block's: some threads of
// the block store 0 and others 1 into one flag, and which lands last is
// not defined.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kThreads = 256;

__global__ void keepIfAllAgree(const float *scores, unsigned char *keep) {
  const float *mine = scores + blockIdx.x * kThreads;
  int vote = mine[threadIdx.x] > 0.5f;
  int all = __syncthreads_and(vote);
  keep[blockIdx.x] = all ? 1 : vote; // expect-race(A): intra-warp
}

int main() {
  const int blocks = 128;
  float *scores;
  unsigned char *keep;
  cudaMalloc(&scores, blocks * kThreads * sizeof(float));
  cudaMalloc(&keep, blocks);
  cudaMemset(scores, 0, blocks * kThreads * sizeof(float));
  keepIfAllAgree<<<blocks, kThreads>>>(scores, keep);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(scores);
  cudaFree(keep);
  return 0;
}
