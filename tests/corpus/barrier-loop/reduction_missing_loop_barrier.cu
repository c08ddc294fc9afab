// category: barrier-loop
// Tree reduction whose barrier sits before the loop instead of inside it: a
// thread reads sdata[t + s] in round k+1 while its owner may still be
// writing it in round k.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void reduceSum(const float *in, float *partial, int n) {
  __shared__ float sdata[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  sdata[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      sdata[t] += sdata[t + s]; // expect-race(a): intra-block
  }
  __syncthreads();
  if (t == 0)
    partial[blockIdx.x] = sdata[0];
}

int main() {
  const int n = 1 << 20, threads = 256;
  const int blocks = n / threads;
  float *in, *partial;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&partial, blocks * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  reduceSum<<<blocks, threads>>>(in, partial, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(partial);
  printf("done\n");
  return 0;
}
