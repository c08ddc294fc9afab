// category: loop-induction
// expect: race-free
// source: blocked matrix kernels that advance tile pointers (a += aStep)
// Each thread advances a read pointer and a write pointer by the same
// stride, a whole grid's worth of elements, in a do-while loop.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void copyStrided(const int *src, int *dst, int n) {
  int start = blockIdx.x * blockDim.x + threadIdx.x;
  if (start >= n)
    return;
  const int step = blockDim.x * gridDim.x;
  const int *from = src + start;
  int *to = dst + start;
  const int *end = src + n;
  do {
    *to = *from + 1;
    from += step;
    to += step;
  } while (from < end);
}

int main() {
  const int n = 100000;
  int *src, *dst;
  cudaMalloc(&src, n * sizeof(int));
  cudaMalloc(&dst, n * sizeof(int));
  cudaMemset(src, 0, n * sizeof(int));
  copyStrided<<<40, 256>>>(src, dst, n);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(src);
  cudaFree(dst);
  return 0;
}
