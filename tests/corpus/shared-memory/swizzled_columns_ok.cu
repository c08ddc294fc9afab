// category: shared-memory
// expect: race-free
// needs: host-facts
// source: image transform kernels that permute a thread's column bits (DCT-style in-place passes)
// Each 32-thread group of the block owns eight padded rows of a tile. A
// thread picks its column by rotating its 5-bit index left by one bit,
// `((r << 1) | (r >> 4 & 1)) & 31`, which is a bijection on 0..31: no two
// threads of a group share a column, so the in-place pass down each column
// (eight reads through a walking pointer, then eight writes) is race-free.
// The `|` operands have no bit in common (a shifted value and a single low
// bit), which keeps the index exact.
#include <cstdio>
#include <cuda_runtime.h>

#define ROWS 8
#define PADDED 34

__device__ void scaleColumn(short *cell, int step) {
  short v[ROWS];
  short *p = cell;
  for (int k = 0; k < ROWS; ++k) {
    v[k] = *p;
    p += step;
  }
  p = cell;
  for (int k = 0; k < ROWS; ++k) {
    *p = (short)(v[k] * 2 - v[ROWS - 1 - k]);
    p += step;
  }
}

__global__ void columnPass(short *image, int width) {
  __shared__ short tile[2 * ROWS * PADDED];
  int r = threadIdx.y * 8 + threadIdx.x;
  int group = threadIdx.z;
  int column = (r & ~31) | ((r << 1) | (r >> 4) & 1) & 31;
  short *base = image + blockIdx.x * 2 * ROWS * width;
  for (int k = 0; k < ROWS; ++k)
    tile[(group * ROWS + k) * PADDED + r] = base[(group * ROWS + k) * width + r];
  __syncthreads();
  scaleColumn(tile + group * ROWS * PADDED + column, PADDED);
  __syncthreads();
  for (int k = 0; k < ROWS; ++k)
    base[(group * ROWS + k) * width + r] = tile[(group * ROWS + k) * PADDED + r];
}

int main() {
  const int width = 32, blocks = 4;
  const size_t count = (size_t)blocks * 2 * ROWS * width;
  short *image;
  cudaMalloc(&image, count * sizeof(short));
  cudaMemset(image, 0, count * sizeof(short));
  columnPass<<<blocks, dim3(8, 4, 2)>>>(image, width);
  short first;
  cudaMemcpy(&first, image, sizeof(short), cudaMemcpyDeviceToHost);
  printf("image[0] = %d\n", first);
  cudaFree(image);
  return 0;
}
