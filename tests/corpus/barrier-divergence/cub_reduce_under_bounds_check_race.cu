// category: barrier-divergence
// needs: host-facts
// source: element-wise optimizer kernels that reduce a block's maximum
// inside their bounds check, with the size read from the command line
// The launch rounds the grid up to whole blocks, so the last block has
// threads past n. They skip the bounds check's body, and with it the
// barriers inside cub::BlockReduce and the one after it: the threads of
// that block do not all reach them. The report names the call into CUB,
// where the user's code reaches the library's barrier.
#include <cstdio>
#include <cstdlib>
#include <cub/cub.cuh>
#include <cuda_runtime.h>

constexpr int kThreads = 64;

__global__ void normalize(float *scale, float *value, long n) {
  using BlockMax = cub::BlockReduce<float, kThreads>;
  __shared__ BlockMax::TempStorage scratch;
  __shared__ float block_max;
  long i = blockIdx.x * (long)kThreads + threadIdx.x;
  if (i < n) {
    float v = value[i];
    float m = BlockMax(scratch).Reduce(fabsf(v), cuda::maximum<float>()); // expect-divergence: barrier-divergence
    if (threadIdx.x == 0) {
      scale[blockIdx.x] = m;
      block_max = m;
    }
    __syncthreads(); // expect-divergence: barrier-divergence
    value[i] = v / block_max;
  }
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  long blocks = (n + kThreads - 1) / kThreads;
  float *scale, *value;
  cudaMalloc(&scale, blocks * sizeof(float));
  cudaMalloc(&value, n * sizeof(float));
  cudaMemset(value, 0, n * sizeof(float));
  normalize<<<blocks, kThreads>>>(scale, value, n);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(scale);
  cudaFree(value);
  return 0;
}
