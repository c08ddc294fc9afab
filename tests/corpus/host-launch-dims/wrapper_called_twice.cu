// category: host-launch-dims
// source: HGRD host-code guided analysis (one kernel, several call chains)
// One launch site in a wrapper, reached from two calls: the final reduction
// with one block is race-free, the call with several blocks makes the
// blocks' writes of the total race.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void finalSum(const float *partial, float *total, int n) {
  if (threadIdx.x == 0) {
    float sum = 0.0f;
    for (int i = 0; i < n; ++i)
      sum += partial[i];
    *total = sum; // expect-race(a): inter-block
  }
}

void reduce(const float *partial, float *total, int n, int blocks) {
  finalSum<<<blocks, 32>>>(partial, total, n);
}

int main() {
  const int n = 64;
  float *partial, *total;
  cudaMalloc(&partial, n * sizeof(float));
  cudaMalloc(&total, sizeof(float));
  cudaMemset(partial, 0, n * sizeof(float));
  reduce(partial, total, n, 1);
  reduce(partial, total, n, 4);
  float result;
  cudaMemcpy(&result, total, sizeof(float), cudaMemcpyDeviceToHost);
  printf("total %f\n", result);
  cudaFree(partial);
  cudaFree(total);
  return 0;
}
