// category: host-assert
// source: Kaldi copyFromTp with a weaker check
// The host only checks that the stride is positive; a stride below the
// column count makes consecutive destination rows overlap (stride = 1:
// threads (2,0) and (0,2) both write dst[2]).
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void copyFromTp(float *dst, int stride, const float *src, int rows,
                           int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < cols && j < rows)
    dst[j * stride + i] = src[i * rows + j]; // expect-race(a): intra-block
}

int main(int argc, char **argv) {
  int rows = argc > 3 ? atoi(argv[1]) : 300;
  int cols = argc > 3 ? atoi(argv[2]) : 200;
  int stride = argc > 3 ? atoi(argv[3]) : 256;
  assert(rows > 0 && cols > 0);
  assert(stride > 0);
  float *dst, *src;
  cudaMalloc(&dst, (size_t)rows * stride * sizeof(float) + cols * sizeof(float));
  cudaMalloc(&src, (size_t)rows * cols * sizeof(float));
  cudaMemset(src, 0, (size_t)rows * cols * sizeof(float));
  dim3 block(16, 16);
  dim3 grid((cols + 15) / 16, (rows + 15) / 16);
  copyFromTp<<<grid, block>>>(dst, stride, src, rows, cols);
  cudaDeviceSynchronize();
  cudaFree(dst);
  cudaFree(src);
  printf("done\n");
  return 0;
}
