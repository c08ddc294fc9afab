// category: barrier-loop
// expect: race-free
// source: block-wide work loops whose remaining count one thread keeps in shared memory
// Thread 0 reads the block's item count, and after each round of the
// block-wide loop takes one round's worth off it. Every thread reads the
// count at the loop's head between the same two barriers, so all threads
// of a block see the same count: they leave the loop together and reach
// each barrier in it. No fence anywhere in the kernel could order a write
// inside those barriers.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kThreads = 128;
constexpr int kBlocks = 4;

__global__ void drainRounds(const int *counts, const float *items, float *sums) {
  __shared__ int remaining;
  __shared__ float staged[kThreads];
  if (threadIdx.x == 0)
    remaining = counts[blockIdx.x];
  __syncthreads();
  float total = 0.0f;
  int round = 0;
  int left;
  while ((left = remaining) > 0) {
    staged[threadIdx.x] =
        threadIdx.x < left ? items[blockIdx.x * 1024 + round * kThreads + threadIdx.x] : 0.0f;
    __syncthreads();
    total += staged[(threadIdx.x + 1) % kThreads];
    ++round;
    __syncthreads();
    if (threadIdx.x == 0)
      remaining -= kThreads;
    __syncthreads();
  }
  sums[blockIdx.x * kThreads + threadIdx.x] = total;
}

int main() {
  int counts[kBlocks] = {1000, 10, 300, 0};
  int *dcounts;
  float *items, *sums;
  cudaMalloc(&dcounts, sizeof(counts));
  cudaMalloc(&items, kBlocks * 1024 * sizeof(float));
  cudaMalloc(&sums, kBlocks * kThreads * sizeof(float));
  cudaMemcpy(dcounts, counts, sizeof(counts), cudaMemcpyHostToDevice);
  cudaMemset(items, 0, kBlocks * 1024 * sizeof(float));
  drainRounds<<<kBlocks, kThreads>>>(dcounts, items, sums);
  float host[kBlocks * kThreads];
  cudaMemcpy(host, sums, sizeof(host), cudaMemcpyDeviceToHost);
  printf("%f\n", host[0]);
  return 0;
}
