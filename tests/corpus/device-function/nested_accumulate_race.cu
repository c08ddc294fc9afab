// category: device-function
// Two levels of device functions: groups of eight lanes add into one
// accumulator through a plain read-modify-write.
#include <cstdio>
#include <cuda_runtime.h>

__device__ void addTo(float *dst, float v) {
  *dst += v; // expect-race(a): intra-warp
}

__device__ void accumulate(float *groupSums, int t, float v) {
  addTo(&groupSums[t / 8], v);
}

__global__ void groupSum(const float *in, float *groupSums) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  accumulate(groupSums, t, in[t]);
}

int main() {
  const int n = 1024;
  float *in, *groupSums;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&groupSums, (n / 8) * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  cudaMemset(groupSums, 0, (n / 8) * sizeof(float));
  groupSum<<<n / 128, 128>>>(in, groupSums);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(groupSums);
  printf("done\n");
  return 0;
}
