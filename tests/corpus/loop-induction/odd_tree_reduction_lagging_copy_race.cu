// category: loop-induction
// needs: host-facts
// source: a tree reduction over a block whose size is not a power of two
// The same reduction, but thread 0 picks up the left-out element at
// s[old_n / 2 - 1]: old_n / 2 is this round's n, so that is s[n - 1],
// which thread n - 1 writes in the same round: threads 0 and 23 of one
// warp when n is 24, and of two warps when n is 49.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kWidth = 198;

__global__ void blockSums(const float *in, float *sums) {
  __shared__ float s[kWidth];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * kWidth + t];
  __syncthreads();
  for (int n = kWidth / 2, old_n = kWidth; n > 0; old_n = n, n /= 2) {
    if (t < n) {
      s[t] += s[t + n]; // expect-race(a): intra-warp
      if (t == 0 && old_n % 2 != 0)
        s[0] += s[old_n / 2 - 1]; // expect-race(a): intra-warp
    }
    __syncthreads();
  }
  if (t == 0)
    sums[blockIdx.x] = s[0];
}

int main() {
  const int blocks = 4;
  float *in, *sums;
  cudaMalloc(&in, blocks * kWidth * sizeof(float));
  cudaMalloc(&sums, blocks * sizeof(float));
  cudaMemset(in, 0, blocks * kWidth * sizeof(float));
  blockSums<<<blocks, kWidth>>>(in, sums);
  float first = 0;
  cudaMemcpy(&first, sums, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", first);
  cudaFree(in);
  cudaFree(sums);
  return 0;
}
