// category: host-allocation
// needs: host-facts
// The word-wise copy of a pitched 16-bit image writes its result with the
// stride in pixels as a stride in words, `((int *)row)[r * stride]`: a step
// of two rows. Band 0's row r = 4 is band 1's row 0 (row 8 of the tile), so
// threads of two warps of one block store the same word in the same barrier
// interval (and the last band's rows reach into the next block's tile).
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 32
#define PAD_STRIDE (TILE + 2)

__global__ void scaleTiles(const short *image, int stride, short *result, int result_stride) {
  __shared__ short tile[TILE * PAD_STRIDE];
  int lane = threadIdx.y * 8 + threadIdx.x;
  int band = threadIdx.z * 8;
  int corner = blockIdx.x * TILE + lane * 2;
  image += (blockIdx.y * TILE + band) * stride + corner;
  result += (blockIdx.y * TILE + band) * result_stride + corner;
  short *mine = tile + band * PAD_STRIDE + lane * 2;
  if (lane < TILE / 2)
    for (int r = 0; r < 8; r++)
      ((int *)mine)[r * (PAD_STRIDE / 2)] = ((const int *)image)[r * (stride / 2)];
  __syncthreads();
  if (lane < TILE / 2)
    for (int r = 0; r < 8; r++)
      mine[r * PAD_STRIDE] = mine[r * PAD_STRIDE] >> 1;
  __syncthreads();
  if (lane < TILE / 2)
    for (int r = 0; r < 8; r++)
      ((int *)result)[r * result_stride] = ((int *)mine)[r * (PAD_STRIDE / 2)]; // expect-race(a): intra-block
}

int main() {
  const int width = 512, height = 256;
  short *image, *result;
  size_t pitch, result_pitch;
  cudaMallocPitch((void **)&image, &pitch, width * sizeof(short), height);
  cudaMallocPitch((void **)&result, &result_pitch, width * sizeof(short), height);
  cudaMemset2D(image, pitch, 0, width * sizeof(short), height);
  int stride = static_cast<int>(pitch / sizeof(short));
  int result_stride = static_cast<int>(result_pitch / sizeof(short));
  dim3 threads(8, TILE / 8, TILE / 8);
  dim3 grid(width / TILE, height / TILE);
  scaleTiles<<<grid, threads>>>(image, stride, result, result_stride);
  cudaDeviceSynchronize();
  cudaFree(image);
  cudaFree(result);
  printf("done\n");
  return 0;
}
