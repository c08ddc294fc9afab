// category: host-relation
// source: HeCBench toneMapping with mismatched parameters
// The grid is derived from the full width but the kernel gets half of it as
// the row length, so the right half of row y lands on row y + 1 (width 32:
// threads at x = 16, y = 0 and x = 0, y = 1 write the same byte).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void toneMapping(const float *hdr, unsigned char *output, int width,
                            int channels, float exposure) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float v = hdr[width * y + x] * exposure;
  float mapped = v / (1.0f + v);
  output[width * channels * y + x * channels] = static_cast<unsigned char>(255.0f * mapped); // expect-race(a): inter-block
}

void compress(const float *hdr, unsigned char *output, int hWidth,
              int hHeight) {
  dim3 block(16, 16);
  dim3 grid(hWidth / 16, hHeight / 16);
  toneMapping<<<grid, block>>>(hdr, output, hWidth / 2, 4, 1.5f);
}

int main(int argc, char **argv) {
  int width = argc > 2 ? atoi(argv[1]) : 1024;
  int height = argc > 2 ? atoi(argv[2]) : 768;
  float *hdr;
  unsigned char *output;
  cudaMalloc(&hdr, (size_t)width * height * sizeof(float));
  cudaMalloc(&output, (size_t)width * height * 4);
  cudaMemset(hdr, 0, (size_t)width * height * sizeof(float));
  compress(hdr, output, width, height);
  cudaDeviceSynchronize();
  cudaFree(hdr);
  cudaFree(output);
  printf("done\n");
  return 0;
}
