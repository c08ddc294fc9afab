// category: global-memory
// expect: race-free
// Each thread reads and writes only its own element in one statement.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void relu(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

int main() {
  const int n = 1000;
  float host[n];
  for (int i = 0; i < n; ++i)
    host[i] = i - 500.0f;
  float *x;
  cudaMalloc(&x, sizeof(host));
  cudaMemcpy(x, host, sizeof(host), cudaMemcpyHostToDevice);
  relu<<<(n + 127) / 128, 128>>>(x, n);
  cudaMemcpy(host, x, sizeof(host), cudaMemcpyDeviceToHost);
  printf("x[999] = %f\n", host[999]);
  cudaFree(x);
  return 0;
}
