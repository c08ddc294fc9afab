// category: host-allocation
// expect: race-free
// needs: host-facts
// source: CUDA samples simplePitchLinearTexture (shift kernel, HGRD Fig. 5)
// Rows are rowSize / 4 elements apart; rowSize is the pitch cudaMallocPitch
// returned, which is at least width * sizeof(float), so rows never overlap.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void shift(float *matrix, int rowSize, int width, int height,
                      const float *src, int shiftX) {
  int xid = blockIdx.x * blockDim.x + threadIdx.x;
  int yid = blockIdx.y * blockDim.y + threadIdx.y;
  if (xid < width && yid < height)
    matrix[yid * (rowSize / 4) + xid] = src[yid * width + (xid + shiftX) % width];
}

int main() {
  const int width = 2048, height = 2048;
  float *matrix, *src;
  size_t pitch;
  cudaMallocPitch((void **)&matrix, &pitch, width * sizeof(float), height);
  cudaMalloc(&src, width * height * sizeof(float));
  cudaMemset(src, 0, width * height * sizeof(float));
  int hRowSize = static_cast<int>(pitch);
  dim3 block(16, 16);
  dim3 grid(width / 16, height / 16);
  shift<<<grid, block>>>(matrix, hRowSize, width, height, src, 7);
  cudaDeviceSynchronize();
  cudaFree(matrix);
  cudaFree(src);
  printf("done\n");
  return 0;
}
