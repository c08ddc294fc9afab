// category: shared-memory
// A tile transpose that reads the transposed slot right after writing its
// own, without the barrier: slot [tx][ty] belongs to thread (ty, tx), which
// is in another warp for most pairs.
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 16

__global__ void transposeTile(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x]; // expect-race(a): intra-block
  int tx = blockIdx.y * TILE + threadIdx.x;
  int ty = blockIdx.x * TILE + threadIdx.y;
  out[ty * n + tx] = tile[threadIdx.x][threadIdx.y]; // expect-race(a): intra-block
}

int main() {
  const int n = 1024;
  float *in, *out;
  cudaMalloc(&in, n * n * sizeof(float));
  cudaMalloc(&out, n * n * sizeof(float));
  cudaMemset(in, 0, n * n * sizeof(float));
  transposeTile<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(in, out, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  printf("done\n");
  return 0;
}
