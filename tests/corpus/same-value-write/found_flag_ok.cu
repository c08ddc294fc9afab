// category: same-value-write
// expect: race-free
// source: "is any element negative?" checks that every matching thread answers
// Every thread that finds a negative element raises one flag word. All of
// them store 1, so whichever store lands last the flag holds 1: the
// write-write pairs are benign, not findings (`--all` lists them).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void anyNegative(const float *values, int *found, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && values[i] < 0.0f)
    *found = 1;
}

int main() {
  const int n = 1 << 14;
  float *values;
  int *found;
  cudaMalloc(&values, n * sizeof(float));
  cudaMalloc(&found, sizeof(int));
  cudaMemset(values, 0, n * sizeof(float));
  cudaMemset(found, 0, sizeof(int));
  anyNegative<<<n / 256, 256>>>(values, found, n);
  int host = 0;
  cudaMemcpy(&host, found, sizeof(int), cudaMemcpyDeviceToHost);
  printf("negative: %d\n", host);
  cudaFree(values);
  cudaFree(found);
  return 0;
}
