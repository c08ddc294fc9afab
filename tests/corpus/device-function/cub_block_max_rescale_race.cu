// category: device-function
// needs: host-facts
// source: optimizer steps that quantize a block's values by the block's
// largest magnitude, found with CUB's BlockReduce
// As in the race-free version, the barrier inside cub::BlockReduce orders
// the reads of the old scale before thread 0 stores the new one. But the
// threads then read the new scale back from global memory with no barrier
// after thread 0's store: a thread of the block may read it before or
// after the store.
#include <cstdio>
#include <cub/cub.cuh>
#include <cuda_runtime.h>

constexpr int kThreads = 128;

__global__ void rescale(float *scale, const float *grad, float *value) {
  using BlockMax = cub::BlockReduce<float, kThreads>;
  __shared__ BlockMax::TempStorage scratch;
  int i = blockIdx.x * kThreads + threadIdx.x;
  float v = value[i] * scale[blockIdx.x] - grad[i];
  float m = BlockMax(scratch).Reduce(fabsf(v), cuda::maximum<float>());
  if (threadIdx.x == 0)
    scale[blockIdx.x] = m; // expect-race(A): intra-block
  value[i] = v / scale[blockIdx.x]; // expect-race(A): intra-block
}

int main() {
  const int blocks = 256, n = blocks * kThreads;
  float *scale, *grad, *value;
  cudaMalloc(&scale, blocks * sizeof(float));
  cudaMalloc(&grad, n * sizeof(float));
  cudaMalloc(&value, n * sizeof(float));
  cudaMemset(grad, 0, n * sizeof(float));
  cudaMemset(value, 0, n * sizeof(float));
  cudaMemset(scale, 0, blocks * sizeof(float));
  rescale<<<blocks, kThreads>>>(scale, grad, value);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(scale);
  cudaFree(grad);
  cudaFree(value);
  return 0;
}
