// category: shared-memory
// needs: host-facts
// source: image transform kernels that permute a thread's column bits (DCT-style in-place passes)
// The column rotation of swizzled_columns_ok.cu masked to four bits instead
// of five: `((r << 1) | (r >> 4 & 1)) & 15` maps the 32 threads of a group
// onto 16 columns, so threads 0 and 8 of a warp (rows 0 and 1 of the
// block's x-y plane) both fill column 0 with values of their own.
#include <cstdio>
#include <cuda_runtime.h>

#define ROWS 8
#define PADDED 34

__device__ void fillColumn(short *cell, int step, int seed) {
  short *p = cell;
  for (int k = 0; k < ROWS; ++k) {
    *p = (short)(seed + k); // expect-race(A): intra-warp
    p += step;
  }
}

__global__ void columnFill(short *image, int width) {
  __shared__ short tile[2 * ROWS * PADDED];
  int r = threadIdx.y * 8 + threadIdx.x;
  int group = threadIdx.z;
  int column = (r & ~31) | ((r << 1) | (r >> 4) & 1) & 15;
  fillColumn(tile + group * ROWS * PADDED + column, PADDED, r);
  __syncthreads();
  short *base = image + blockIdx.x * 2 * ROWS * width;
  for (int k = 0; k < ROWS; ++k)
    base[(group * ROWS + k) * width + r] = tile[(group * ROWS + k) * PADDED + r];
}

int main() {
  const int width = 32, blocks = 4;
  const size_t count = (size_t)blocks * 2 * ROWS * width;
  short *image;
  cudaMalloc(&image, count * sizeof(short));
  columnFill<<<blocks, dim3(8, 4, 2)>>>(image, width);
  short first;
  cudaMemcpy(&first, image, sizeof(short), cudaMemcpyDeviceToHost);
  printf("image[0] = %d\n", first);
  cudaFree(image);
  return 0;
}
