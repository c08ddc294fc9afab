// category: perf
// expect: race-free
// needs: host-facts
// source: filters that read per-warp coefficients from shared memory
// coeff[t / 32] is one word for the whole warp: a broadcast, free.
// coeff[t % 4] is four words in four banks: free. table[(t % 4) * 32]
// is four words of bank 0: 4-way, paid in every iteration of the loop.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kThreads = 128;

__global__ void scaleByWarp(const float *in, float *out, int taps) {
  __shared__ float coeff[kThreads / 32];
  __shared__ float table[4 * 32];
  unsigned t = threadIdx.x;
  if (t < kThreads / 32)
    coeff[t] = 1.0f + t;
  table[t] = 0.5f * t;
  __syncthreads();
  float x = in[blockIdx.x * kThreads + t];
  float y = x * coeff[t / 32]; // expect-perf: banks 1
  y += coeff[t % 4]; // expect-perf: banks 1
  for (int k = 0; k < taps; ++k)
    y += table[(t % 4) * 32]; // expect-perf: banks 4
  out[blockIdx.x * kThreads + t] = y;
}

int main() {
  const int blocks = 256;
  float *in, *out;
  cudaMalloc(&in, blocks * kThreads * sizeof(float));
  cudaMalloc(&out, blocks * kThreads * sizeof(float));
  cudaMemset(in, 0, blocks * kThreads * sizeof(float));
  scaleByWarp<<<blocks, kThreads>>>(in, out, 4);
  cudaDeviceSynchronize();
  printf("scaled %d blocks\n", blocks);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
