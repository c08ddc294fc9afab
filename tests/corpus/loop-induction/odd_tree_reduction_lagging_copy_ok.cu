// category: loop-induction
// expect: race-free
// needs: host-facts
// source: a tree reduction over a block whose size is not a power of two
// Each round adds the upper half onto the lower; `old_n` keeps the width
// the round before (`old_n = n, n /= 2`), so when that width was odd the
// last thread of the lower half also adds the element the pairing left
// out, s[old_n - 1]. That element is 2n or 2n + 1 places up, above every
// element the round writes (those below n), and a barrier ends each
// round.
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
      s[t] += s[t + n];
      if (t == n - 1 && old_n % 2 != 0)
        s[t] += s[old_n - 1];
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
