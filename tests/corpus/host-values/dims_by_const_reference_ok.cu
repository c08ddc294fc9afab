// category: host-values
// expect: race-free
// needs: host-facts
// source: matrix samples that pass dim3 sizes by const reference
// main sets the matrix width from the command line on one path and a
// default on the other, and passes the dim3 by const reference to the
// function that launches. The grid is the width over the block's x, and
// the kernel's row stride is the same width: every thread writes its own
// element whatever the width.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

template <int TILE>
__global__ void scaleTiles(float *c, int width) {
  int col = blockIdx.x * TILE + threadIdx.x;
  int row = blockIdx.y * TILE + threadIdx.y;
  c[row * width + col] *= 2.0f;
}

int runScale(int tile, const dim3 &sizes) {
  float *c;
  cudaMalloc(&c, sizes.x * sizes.y * sizeof(float));
  dim3 threads(tile, tile);
  dim3 grid(sizes.x / threads.x, sizes.y / threads.y);
  scaleTiles<16><<<grid, threads>>>(c, sizes.x);
  cudaDeviceSynchronize();
  cudaFree(c);
  return 0;
}

int main(int argc, char **argv) {
  int tile = 16;
  dim3 sizes(20 * tile, 10 * tile, 1);
  if (argc > 1)
    sizes.x = atoi(argv[1]);
  int status = runScale(tile, sizes);
  printf("done\n");
  return status;
}
