// category: loop-induction
// expect: race-free
// needs: host-facts
// source: stream compaction's block prefix sum, whose down-sweep bumps its thread count inside the loop and doubles it in the increment
// blockPrefix: an up-sweep leaves `offset` at the block's width; the
// down-sweep then runs `for (d = 0; d < top; d <<= 1) { d += 1; offset >>=
// 1; ... }`, so d is 1, 3, 7, ... in the body while offset halves. Each
// step's threads read s[ai] and add into s[bi] = s[ai + offset / 2]; the
// pairs of one step are disjoint while offset is at least 1, and the loop
// test on d keeps it so: d + 2 doubles each iteration as offset halves.
// The global indices need the launch's block of kWidth threads.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kWidth = 256;

__global__ void blockPrefix(int *data) {
  __shared__ int s[kWidth];
  s[threadIdx.x] = data[blockIdx.x * kWidth + threadIdx.x];
  int offset = 1;
  for (int l = kWidth >> 1; l > 0; l >>= 1) {
    __syncthreads();
    if (threadIdx.x < l) {
      int ai = offset * (2 * threadIdx.x + 1) - 1;
      s[ai + offset] += s[ai];
    }
    offset <<= 1;
  }
  int top = offset >> 1;
  for (int d = 0; d < top; d <<= 1) {
    d += 1;
    offset >>= 1;
    __syncthreads();
    if (threadIdx.x < d) {
      int ai = offset * (threadIdx.x + 1) - 1;
      int bi = ai + (offset >> 1);
      s[bi] += s[ai];
    }
  }
  __syncthreads();
  data[blockIdx.x * kWidth + threadIdx.x] = s[threadIdx.x];
}

int main() {
  const int blocks = 16;
  int *data;
  cudaMalloc(&data, blocks * kWidth * sizeof(int));
  cudaMemset(data, 0, blocks * kWidth * sizeof(int));
  blockPrefix<<<blocks, kWidth>>>(data);
  int first = 0;
  cudaMemcpy(&first, data, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", first);
  cudaFree(data);
  return 0;
}
