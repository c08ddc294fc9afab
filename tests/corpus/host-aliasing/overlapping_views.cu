// category: host-aliasing
// The host passes two overlapping views into one allocation, 100 elements
// apart: dst = base + 100, src = base. Thread i writes
// dst[i] = base[i + 100] while thread i + 100 reads src[i + 100].
#include <cstdio>
#include <cuda_runtime.h>

__global__ void copy(float *dst, const float *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] = src[i]; // expect-race(a): intra-block
}

int main() {
  const int n = 4096;
  float *base;
  cudaMalloc(&base, (n + 100) * sizeof(float));
  cudaMemset(base, 0, (n + 100) * sizeof(float));
  copy<<<n / 256, 256>>>(base + 100, base, n);
  cudaDeviceSynchronize();
  cudaFree(base);
  printf("done\n");
  return 0;
}
