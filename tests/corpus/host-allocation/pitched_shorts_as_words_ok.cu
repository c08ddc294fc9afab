// category: host-allocation
// needs: host-facts
// A 16-bit image in a pitched allocation is read through shared memory two
// pixels at a time and written back pixel by pixel, in place: each of the
// first 16 threads of a row reads the 32-bit word
// `((const int *)image)[row * (stride / 2) + column / 2]`, where `stride` is
// the pitch in pixels, and later stores `image[row * stride + column]` and
// the pixel after it. Word and pixel indices name the same pixels only
// because cudaMallocPitch keeps every row aligned for coalesced (up to
// 16-byte) accesses: the pitch in pixels is even, so `stride / 2` words are
// one row. With an odd stride, row r's words would start r pixels early and
// read the last pixels of the tile to the left while its block writes them.
// expect: race-free
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 32
#define PAD_STRIDE (TILE + 2)

__global__ void halveTiles(short *image, int stride) {
  __shared__ short tile[TILE * PAD_STRIDE];
  int lane = threadIdx.y * 8 + threadIdx.x;
  int band = threadIdx.z * 8;
  int column = blockIdx.x * TILE + lane * 2;
  short *mine = tile + band * PAD_STRIDE + lane * 2;
  if (lane < TILE / 2)
    for (int r = 0; r < 8; r++) {
      int row = blockIdx.y * TILE + band + r;
      ((int *)mine)[r * (PAD_STRIDE / 2)] = ((const int *)image)[row * (stride / 2) + column / 2];
    }
  __syncthreads();
  if (lane < TILE / 2)
    for (int r = 0; r < 8; r++) {
      int row = blockIdx.y * TILE + band + r;
      image[row * stride + column] = mine[r * PAD_STRIDE] >> 1;
      image[row * stride + column + 1] = mine[r * PAD_STRIDE + 1] >> 1;
    }
}

int main() {
  const int width = 512, height = 256;
  short *image;
  size_t pitch;
  cudaMallocPitch((void **)&image, &pitch, width * sizeof(short), height);
  cudaMemset2D(image, pitch, 0, width * sizeof(short), height);
  int stride = static_cast<int>(pitch / sizeof(short));
  dim3 threads(8, TILE / 8, TILE / 8);
  dim3 grid(width / TILE, height / TILE);
  halveTiles<<<grid, threads>>>(image, stride);
  cudaDeviceSynchronize();
  cudaFree(image);
  printf("done\n");
  return 0;
}
