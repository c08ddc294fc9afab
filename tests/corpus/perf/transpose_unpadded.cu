// category: perf
// expect: race-free
// needs: host-facts
// source: the shared-memory tile transpose of matrix tutorials, before padding
// Lanes of a warp share threadIdx.y and take threadIdx.x 0..31. Writing
// tile[ty][tx] puts them in 32 banks; reading tile[tx][ty] puts all 32 in
// bank ty, each at its own word: a 32-way conflict. The global loads and
// stores walk rows, so each warp's 32 floats are 4 sectors.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kTile = 32;

__global__ void transposeTile(const float *in, float *out, int n) {
  __shared__ float tile[kTile][kTile];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x]; // expect-perf: banks 1, sectors 4/4
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y]; // expect-perf: banks 32, sectors 4/4
}

int main() {
  const int n = 1024;
  float *in, *out;
  cudaMalloc(&in, n * n * sizeof(float));
  cudaMalloc(&out, n * n * sizeof(float));
  cudaMemset(in, 0, n * n * sizeof(float));
  dim3 block(kTile, kTile);
  dim3 grid(n / kTile, n / kTile);
  transposeTile<<<grid, block>>>(in, out, n);
  cudaDeviceSynchronize();
  printf("transposed %dx%d\n", n, n);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
