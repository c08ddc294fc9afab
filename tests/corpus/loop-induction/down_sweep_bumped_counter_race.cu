// category: loop-induction
// source: stream compaction's block prefix sum, whose down-sweep bumps its thread count inside the loop and doubles it in the increment
// blockPrefix: as down_sweep_bumped_counter_ok, but the down-sweep's
// steps have no barrier between them: a thread adding into s[bi] in one
// step races with another reading it as its s[ai] in the next, within a
// warp.
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
  __syncthreads();
  int top = offset >> 1;
  for (int d = 0; d < top; d <<= 1) {
    d += 1;
    offset >>= 1;
    if (threadIdx.x < d) {
      int ai = offset * (threadIdx.x + 1) - 1;
      int bi = ai + (offset >> 1);
      s[bi] += s[ai]; // expect-race(A): intra-warp
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
