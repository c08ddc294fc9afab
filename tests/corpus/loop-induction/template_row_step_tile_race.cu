// category: loop-induction
// source: split-operator stencil kernels that stage a tile with a halo in
// shared memory and walk its rows with a second induction variable stepped
// by a template argument times the row width
// Each block loads a BX x BY tile whose border of HALO cells overlaps its
// neighbours' tiles. The write-back skips the right border but keeps the
// left one (the columns are not shifted by HALO): a block's first HALO
// threads write the cells its left neighbour's last inner threads write.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

template <int BX, int BY, int HALO, int ROWS>
__global__ void smoothTile(int width, int height, const float *in, float *out) {
  __shared__ float tile[BY][BX];
  int px = blockIdx.x * (BX - 2 * HALO) + threadIdx.x - HALO;
  int py = blockIdx.y * (BY - 2 * HALO) + threadIdx.y - HALO;
  if (px >= 0 && px < width) {
    for (int i = 0, at = py * width + px; i < BY / ROWS; ++i, at += ROWS * width)
      if (py + i * ROWS >= 0 && py + i * ROWS < height)
        tile[threadIdx.y + i * ROWS][threadIdx.x] = in[at];
  }
  __syncthreads();
  int sx = threadIdx.x;
  int sy = threadIdx.y + HALO;
  py += HALO;
  if (threadIdx.x < BX - HALO && px >= 0 && px < width) {
    for (int i = 0, at = py * width + px; i < BY / ROWS; ++i, at += ROWS * width)
      if (sy + i * ROWS < BY - HALO && py + i * ROWS < height)
        out[at] = tile[sy + i * ROWS][sx]; // expect-race(a): inter-block
  }
}

int main(int argc, char **argv) {
  int width = argc > 2 ? atoi(argv[1]) : 640;
  int height = argc > 2 ? atoi(argv[2]) : 480;
  constexpr int BX = 16, BY = 32, HALO = 2, ROWS = 8;
  float *in, *out;
  cudaMalloc(&in, sizeof(float) * width * height);
  cudaMalloc(&out, sizeof(float) * width * height);
  cudaMemset(in, 0, sizeof(float) * width * height);
  dim3 grid((width + BX - 2 * HALO - 1) / (BX - 2 * HALO),
            (height + BY - 2 * HALO - 1) / (BY - 2 * HALO));
  smoothTile<BX, BY, HALO, ROWS><<<grid, dim3(BX, ROWS)>>>(width, height, in, out);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(in);
  cudaFree(out);
  return 0;
}
