// category: host-aliasing
// expect: race-free
// Appends a copy of the first n elements after them in one allocation:
// dst = base + n and src = base point into the same buffer, n elements
// apart, and the kernel copies exactly n, so the two ranges never meet.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void copy(float *dst, const float *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] = src[i];
}

int main() {
  const int n = 4096;
  float *base;
  cudaMalloc(&base, 2 * n * sizeof(float));
  cudaMemset(base, 0, n * sizeof(float));
  float *tail = base + n;
  copy<<<n / 256, 256>>>(tail, base, n);
  cudaDeviceSynchronize();
  cudaFree(base);
  printf("done\n");
  return 0;
}
