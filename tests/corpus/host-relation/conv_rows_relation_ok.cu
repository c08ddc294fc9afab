// category: host-relation
// expect: race-free
// needs: host-facts
// source: CUDA samples convolutionSeparable (row pass)
// The row convolution writes dst[y * pitch + x] with no bound on x; the
// host sets the grid from imageW and passes imageW as the pitch.
#include <cstdio>
#include <cuda_runtime.h>

#define RADIUS 4
#define BX 16
#define BY 4

__global__ void convolutionRows(float *dst, const float *src,
                                const float *kernel, int imageW, int imageH,
                                int pitch) {
  __shared__ float tile[BY][BX + 2 * RADIUS];
  int x = blockIdx.x * BX + threadIdx.x;
  int y = blockIdx.y * BY + threadIdx.y;
  tile[threadIdx.y][threadIdx.x + RADIUS] = src[y * pitch + x];
  if (threadIdx.x < RADIUS) {
    tile[threadIdx.y][threadIdx.x] = x >= RADIUS ? src[y * pitch + x - RADIUS] : 0.0f;
    tile[threadIdx.y][threadIdx.x + BX + RADIUS] =
        x + BX < imageW ? src[y * pitch + x + BX] : 0.0f;
  }
  __syncthreads();
  float sum = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; ++k)
    sum += kernel[RADIUS - k] * tile[threadIdx.y][threadIdx.x + RADIUS + k];
  dst[y * pitch + x] = sum;
}

int main() {
  const int imageW = 3072, imageH = 3072;
  float *dst, *src, *kernel;
  cudaMalloc(&dst, imageW * imageH * sizeof(float));
  cudaMalloc(&src, imageW * imageH * sizeof(float));
  cudaMalloc(&kernel, (2 * RADIUS + 1) * sizeof(float));
  cudaMemset(src, 0, imageW * imageH * sizeof(float));
  cudaMemset(kernel, 0, (2 * RADIUS + 1) * sizeof(float));
  dim3 blocks(imageW / BX, imageH / BY);
  dim3 threads(BX, BY);
  convolutionRows<<<blocks, threads>>>(dst, src, kernel, imageW, imageH, imageW);
  cudaDeviceSynchronize();
  cudaFree(dst);
  cudaFree(src);
  cudaFree(kernel);
  printf("done\n");
  return 0;
}
