// category: global-memory
// Accumulates statistics into the members of one struct with plain updates.
// The two members never overlap, so the races are per member, not between
// them.
#include <cstdio>
#include <cuda_runtime.h>

struct Stats {
  int count;
  float sum;
};

__global__ void accumulate(const float *x, int n, Stats *stats) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    stats->count += 1;   // expect-race(a): inter-block
    stats->sum += x[i];  // expect-race(b): inter-block
  }
}

int main() {
  const int n = 2048;
  float *x;
  Stats *stats;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&stats, sizeof(Stats));
  cudaMemset(x, 0, n * sizeof(float));
  cudaMemset(stats, 0, sizeof(Stats));
  accumulate<<<n / 256, 256>>>(x, n, stats);
  Stats host;
  cudaMemcpy(&host, stats, sizeof(Stats), cudaMemcpyDeviceToHost);
  printf("count %d sum %f\n", host.count, host.sum);
  cudaFree(x);
  cudaFree(stats);
  return 0;
}
