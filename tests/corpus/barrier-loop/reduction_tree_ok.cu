// category: barrier-loop
// expect: race-free
// source: CUDA samples reduction (reduce1)
// Tree reduction in shared memory with a barrier in every round.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void reduceSum(const float *in, float *partial, int n) {
  extern __shared__ float sdata[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  sdata[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t == 0)
    partial[blockIdx.x] = sdata[0];
}

int main() {
  const int n = 1 << 20, threads = 256;
  const int blocks = (n + threads - 1) / threads;
  float *in, *partial;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&partial, blocks * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  reduceSum<<<blocks, threads, threads * sizeof(float)>>>(in, partial, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(partial);
  printf("reduced %d values into %d partial sums\n", n, blocks);
  return 0;
}
