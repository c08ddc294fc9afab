// 3x3 box blur of a grayscale image with 16x16 shared-memory tiles and a
// one-pixel halo.
//
// What gpurace finds: no race, thanks to the host code. Read alone, the
// kernel looks racy: it stores out[y * width + x] without checking
// x < width, so for some width a thread past the end of a row would write
// the start of the next row, which another thread also writes. The host
// rules that out: it requires the width to be a multiple of the tile
// (the check before the launch) and derives both the grid and the width
// argument from the same variable. `gpurace analyze --explain` names these
// facts; `--host-facts=off` shows the false positive they remove.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

constexpr int kTile = 16;

__global__ void boxBlur(const float *in, float *out, int width, int height) {
  __shared__ float tile[kTile + 2][kTile + 2];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  // Every thread loads its pixel and the threads on the tile border also
  // load the halo, clamped at the image border.
  for (int dy = threadIdx.y; dy < kTile + 2; dy += kTile)
    for (int dx = threadIdx.x; dx < kTile + 2; dx += kTile) {
      int sx = min(max(static_cast<int>(blockIdx.x) * kTile + dx - 1, 0), width - 1);
      int sy = min(max(static_cast<int>(blockIdx.y) * kTile + dy - 1, 0), height - 1);
      tile[dy][dx] = in[sy * width + sx];
    }
  __syncthreads();
  float sum = 0.0f;
  for (int dy = 0; dy < 3; ++dy)
    for (int dx = 0; dx < 3; ++dx)
      sum += tile[threadIdx.y + dy][threadIdx.x + dx];
  out[y * width + x] = sum / 9.0f;
}

int main(int argc, char **argv) {
  int width = argc > 2 ? atoi(argv[1]) : 1920;
  int height = argc > 2 ? atoi(argv[2]) : 1088;
  if (width <= 0 || height <= 0 || width % kTile != 0 ||
      height % kTile != 0) {
    fprintf(stderr, "image size must be a positive multiple of %d\n", kTile);
    return 1;
  }
  size_t pixels = static_cast<size_t>(width) * height;
  std::vector<float> host(pixels, 1.0f);
  float *in, *out;
  cudaMalloc(&in, pixels * sizeof(float));
  cudaMalloc(&out, pixels * sizeof(float));
  cudaMemcpy(in, host.data(), pixels * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(kTile, kTile);
  dim3 grid(width / kTile, height / kTile);
  boxBlur<<<grid, block>>>(in, out, width, height);
  cudaMemcpy(host.data(), out, pixels * sizeof(float), cudaMemcpyDeviceToHost);
  printf("blurred %dx%d, centre %f\n", width, height, host[pixels / 2]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
