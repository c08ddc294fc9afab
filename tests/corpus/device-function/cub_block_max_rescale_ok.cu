// category: device-function
// expect: race-free
// needs: host-facts
// source: optimizer steps that quantize a block's values by the block's
// largest magnitude, found with CUB's BlockReduce
// Every thread reads its block's old scale, the block reduces the new
// maximum with cub::BlockReduce (whose barrier lies inside CUB, two calls
// below the kernel), and thread 0 then stores the new scale. The barrier
// in Reduce orders every read of the old scale before that store; the new
// one reaches the other threads through shared memory after a barrier.
#include <cstdio>
#include <cub/cub.cuh>
#include <cuda_runtime.h>

constexpr int kThreads = 128;

__global__ void rescale(float *scale, const float *grad, float *value) {
  using BlockMax = cub::BlockReduce<float, kThreads>;
  __shared__ BlockMax::TempStorage scratch;
  __shared__ float block_max;
  int i = blockIdx.x * kThreads + threadIdx.x;
  float v = value[i] * scale[blockIdx.x] - grad[i];
  float m = BlockMax(scratch).Reduce(fabsf(v), cuda::maximum<float>());
  if (threadIdx.x == 0) {
    scale[blockIdx.x] = m;
    block_max = m;
  }
  __syncthreads();
  value[i] = v / block_max;
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
