// category: same-value-write
// expect: race-free
// source: suppression passes that mark a candidate kept only when every
// thread of its block votes to keep it, through __syncthreads_and
// Every thread of a block stores the block's vote into the block's flag.
// __syncthreads_and gives all the threads of the block one result, so they
// all store the same value: a benign same-value write. Each round's vote
// reads the flag only after the barrier of the vote that stored it.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kThreads = 256;
constexpr int kRounds = 4;

__global__ void keepIfAllAgree(const float *scores, unsigned char *keep) {
  const float *mine = scores + blockIdx.x * kThreads * kRounds;
  keep[blockIdx.x] = __syncthreads_and(mine[threadIdx.x] > 0.5f);
  for (int round = 1; round < kRounds; ++round) {
    int agree = __syncthreads_and(mine[round * kThreads + threadIdx.x] > 0.5f);
    keep[blockIdx.x + gridDim.x * round] = agree;
  }
}

int main() {
  const int blocks = 128;
  float *scores;
  unsigned char *keep;
  cudaMalloc(&scores, blocks * kThreads * kRounds * sizeof(float));
  cudaMalloc(&keep, blocks * kRounds);
  cudaMemset(scores, 0, blocks * kThreads * kRounds * sizeof(float));
  keepIfAllAgree<<<blocks, kThreads>>>(scores, keep);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(scores);
  cudaFree(keep);
  return 0;
}
