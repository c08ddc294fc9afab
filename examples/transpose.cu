// Matrix transpose through shared-memory tiles (32x32 tiles, 32x8 threads,
// each thread moving four rows), padded to avoid bank conflicts.
//
// What gpurace finds: nothing; it is race-free. Each thread writes its own
// tile rows, the barrier separates the loads from the transposed reads, and
// the output indices are distinct across threads and blocks.
#include <cassert>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

constexpr int kTile = 32;
constexpr int kRows = 8;

__global__ void transpose(const float *in, float *out, int n) {
  __shared__ float tile[kTile][kTile + 1];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  const int n = 2048;
  assert(n % kTile == 0);
  size_t bytes = static_cast<size_t>(n) * n * sizeof(float);
  std::vector<float> host(static_cast<size_t>(n) * n);
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = static_cast<float>(i);
  float *in, *out;
  cudaMalloc(&in, bytes);
  cudaMalloc(&out, bytes);
  cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice);
  dim3 grid(n / kTile, n / kTile);
  dim3 block(kTile, kRows);
  transpose<<<grid, block>>>(in, out, n);
  cudaMemcpy(host.data(), out, bytes, cudaMemcpyDeviceToHost);
  printf("out[1] = %f (expected %d)\n", host[1], n);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
