// category: template
// source: CUDA samples transpose (coalesced, with BLOCK_ROWS)
// A tiled transpose templated on the tile size and the rows each thread
// covers. The <32, 8> launch matches its block of 32x8 threads; the <32, 4>
// launch also uses 32x8 threads, so two threads load each tile row (and
// store each output row) in different iterations. The duplicate loads copy
// the same element of a buffer nothing writes, a benign race (`--all`
// shows it); the duplicate stores copy tile entries, which the analysis
// does not see as one value.
#include <cstdio>
#include <cuda_runtime.h>

template <int TILE, int ROWS>
__global__ void transpose(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (threadIdx.y + j < TILE)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (threadIdx.y + j < TILE)
      out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j]; // expect-race(b): intra-block
}

int main() {
  const int n = 1024;
  float *in, *out;
  cudaMalloc(&in, n * n * sizeof(float));
  cudaMalloc(&out, n * n * sizeof(float));
  cudaMemset(in, 0, n * n * sizeof(float));
  dim3 grid(n / 32, n / 32);
  transpose<32, 8><<<grid, dim3(32, 8)>>>(in, out, n);
  transpose<32, 4><<<grid, dim3(32, 8)>>>(in, out, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  printf("done\n");
  return 0;
}
