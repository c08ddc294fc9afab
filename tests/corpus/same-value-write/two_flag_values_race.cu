// category: same-value-write
// source: status words set by different paths of one kernel
// Threads store 1 or 2 into one status word depending on which side of the
// range they are: two threads can store different values, so the result
// depends on which store lands last.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void classify(const float *values, int *status, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (values[i] < 0.0f)
    *status = 1; // expect-race(a): inter-block
  else
    *status = 2; // expect-race(a): inter-block
}

int main() {
  const int n = 1 << 12;
  float *values;
  int *status;
  cudaMalloc(&values, n * sizeof(float));
  cudaMalloc(&status, sizeof(int));
  cudaMemset(values, 0, n * sizeof(float));
  classify<<<n / 128, 128>>>(values, status, n);
  int host = 0;
  cudaMemcpy(&host, status, sizeof(int), cudaMemcpyDeviceToHost);
  printf("status: %d\n", host);
  cudaFree(values);
  cudaFree(status);
  return 0;
}
