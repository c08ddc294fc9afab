// category: loop-induction
// expect: race-free
// source: im2col lowering of convolutions (Caffe- and PyTorch-style
// kernels), whose column pointer is stepped in the innermost of the
// kernel-window loops
// Each thread owns one pixel of one channel and writes its ksize x ksize
// window values down a column of the column matrix: one plane apart, the
// pointer stepped only in the inner loop. Each outer iteration therefore
// advances it by ksize planes, and channel ch's columns start ksize^2
// planes after channel ch - 1's, so no two threads write one element.
#include <cstdio>
#include <cuda_runtime.h>

template <int ksize>
__global__ void im2col(const float *image, float *columns, int height, int width, int plane,
                       int pad) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  int ch = blockIdx.y;
  if (p >= plane)
    return;
  int y = p / width, x = p % width;
  float *col = columns + ch * ksize * ksize * plane + p;
  for (int i = 0; i < ksize; ++i)
    for (int j = 0; j < ksize; ++j) {
      int yy = y - pad + i, xx = x - pad + j;
      *col = (yy >= 0 && xx >= 0 && yy < height && xx < width)
                 ? image[(ch * height + yy) * width + xx]
                 : 0.0f;
      col += plane;
    }
}

int main() {
  constexpr int ksize = 3;
  const int channels = 3, height = 64, width = 64, pad = 1;
  float *image, *columns;
  cudaMalloc(&image, channels * height * width * sizeof(float));
  cudaMalloc(&columns, channels * ksize * ksize * height * width * sizeof(float));
  cudaMemset(image, 0, channels * height * width * sizeof(float));
  dim3 block(256);
  dim3 grid((height * width + 255) / 256, channels);
  im2col<ksize><<<grid, block>>>(image, columns, height, width, height * width, pad);
  cudaDeviceSynchronize();
  printf("lowered %d channels\n", channels);
  cudaFree(image);
  cudaFree(columns);
  return 0;
}
