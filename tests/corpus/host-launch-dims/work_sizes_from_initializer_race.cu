// category: host-launch-dims
// source: benchmarks ported from OpenCL, whose host code keeps the global
// and local work sizes in initialized size arrays (`size_t local[] = {...}`)
// and overwrites an element before each launch.
// Each block writes its own tile of 512 values: two rows of 256 threads.
// Here the initializer asks for four rows of threads (128 x 4, then 256 x 4
// after the store): a block's rows run into the next block's tile (the
// buffers have one spare tile, so the last block's rows stay in bounds).
// Each block adds its tile number, so two blocks store different values.
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 512
#define ROW 256

__global__ void packTiles(float *dst, const float *src, int tiles) {
  int tile = blockIdx.y * gridDim.x + blockIdx.x;
  int at = tile * TILE + threadIdx.y * ROW + threadIdx.x;
  if (tile < tiles)
    dst[at] = src[at] * 0.25f + tile; // expect-race(a): inter-block
}

int main() {
  const int tiles = 4096;
  float *src, *dst;
  cudaMalloc(&src, (tiles + 1) * TILE * sizeof(float));
  cudaMalloc(&dst, (tiles + 1) * TILE * sizeof(float));
  size_t local[] = {128, 4, 1};
  size_t global[] = {64, 64, 1};
  local[0] = ROW;
  dim3 threads(local[0], local[1]);
  dim3 blocks(global[0], global[1]);
  packTiles<<<blocks, threads>>>(dst, src, tiles);
  cudaDeviceSynchronize();
  cudaFree(src);
  cudaFree(dst);
  printf("done\n");
  return 0;
}
