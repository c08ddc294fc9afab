// category: barrier-divergence
// needs: host-facts
// source: option-pricing kernels that collect the first few paths that pay
// off, counting the block's hits of each chunk
// first_hits_block_total_ok with every thread adding its own hit instead
// of the block's count: `found` differs from thread to thread, and the barrier
// under `found < 3` is reached by some threads of the block only.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kThreads = 256;

__global__ void firstHits(const float *payoff, const int *pays, float *first, int paths) {
  __shared__ float chunk[kThreads];
  int found = 0;
  for (int p = threadIdx.x; p < paths; p += kThreads) {
    chunk[threadIdx.x] = payoff[blockIdx.x * paths + p];
    int mine = pays[blockIdx.x * paths + p];
    int hits = __syncthreads_count(mine);
    if (found < 3) {
      if (mine && threadIdx.x < 3)
        first[blockIdx.x * 3 + threadIdx.x] = chunk[threadIdx.x];
      __syncthreads(); // expect-divergence: barrier-divergence
      found += mine;
    }
    __syncthreads();
  }
}

int main() {
  const int blocks = 32, paths = 4096;
  float *payoff, *first;
  int *pays;
  cudaMalloc(&payoff, blocks * paths * sizeof(float));
  cudaMalloc(&pays, blocks * paths * sizeof(int));
  cudaMemset(pays, 0, blocks * paths * sizeof(int));
  cudaMalloc(&first, blocks * 3 * sizeof(float));
  cudaMemset(payoff, 0, blocks * paths * sizeof(float));
  firstHits<<<blocks, kThreads>>>(payoff, pays, first, paths);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(payoff);
  cudaFree(pays);
  cudaFree(first);
  return 0;
}
