// category: loop-induction
// source: tiled kernels that start a column cursor at 0 and move it per thread in later rounds
// `col` enters the loop the same in every thread, but the body gives each
// thread its own value for the next round: odd threads jump 5 ahead. In
// round 1 thread 5 writes slot 10, as thread 10 does. A loop value is the
// same for all threads only if every iteration keeps it so.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kThreads = 256;

__global__ void shiftedRounds(int *out) {
  __shared__ int slots[2 * kThreads];
  int col = 0;
  for (int round = 0; round < 4; ++round) {
    slots[col + threadIdx.x] = threadIdx.x; // expect-race(a): intra-block
    __syncthreads();
    out[round * kThreads + threadIdx.x] = slots[threadIdx.x];
    __syncthreads();
    col = (threadIdx.x & 1) * 5;
  }
}

int main() {
  int *out;
  cudaMalloc(&out, 4 * kThreads * sizeof(int));
  shiftedRounds<<<1, kThreads>>>(out);
  int host[4 * kThreads];
  cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost);
  printf("slot 10 in round 1: %d\n", host[kThreads + 10]);
  cudaFree(out);
  return 0;
}
