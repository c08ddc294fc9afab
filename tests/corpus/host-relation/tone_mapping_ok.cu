// category: host-relation
// expect: race-free
// needs: host-facts
// source: HeCBench toneMapping (HGRD Fig. 3)
// The kernel has no bound on x; the host derives both the grid width and
// the width parameter from hWidth, so x never runs past a row.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void toneMapping(const float *hdr, unsigned char *output, int width,
                            int channels, float exposure) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float v = hdr[width * y + x] * exposure;
  float mapped = v / (1.0f + v);
  output[width * channels * y + x * channels] =
      static_cast<unsigned char>(255.0f * mapped);
}

void compress(const float *hdr, unsigned char *output, int hWidth,
              int hHeight) {
  dim3 block(16, 16);
  dim3 grid(hWidth / 16, hHeight / 16);
  toneMapping<<<grid, block>>>(hdr, output, hWidth, 4, 1.5f);
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
