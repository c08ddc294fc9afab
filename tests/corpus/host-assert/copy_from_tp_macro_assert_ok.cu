// category: host-assert
// expect: race-free
// needs: host-facts
// source: Kaldi copyFromTp (KALDI_ASSERT)
// Writes the transpose of a matrix into a strided destination. Rows of the
// destination stay apart only when the stride covers a full row, which the
// host checks with an assert macro that aborts.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK_OR_DIE(cond)                                                     \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);  \
      abort();                                                                 \
    }                                                                          \
  } while (0)

__global__ void copyFromTp(float *dst, int stride, const float *src, int rows,
                           int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < cols && j < rows)
    dst[j * stride + i] = src[i * rows + j];
}

int main(int argc, char **argv) {
  int rows = argc > 3 ? atoi(argv[1]) : 300;
  int cols = argc > 3 ? atoi(argv[2]) : 200;
  int stride = argc > 3 ? atoi(argv[3]) : 256;
  CHECK_OR_DIE(rows > 0 && cols > 0);
  CHECK_OR_DIE(stride >= cols);
  float *dst, *src;
  cudaMalloc(&dst, (size_t)rows * stride * sizeof(float));
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
