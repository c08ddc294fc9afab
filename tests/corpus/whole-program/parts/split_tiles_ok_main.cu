// The host side of ../split_tiles_ok.cu: the kernel is declared here and
// defined in the other file.
#include <cstdio>

__global__ void scale_tiles(float *data, float factor);

int main() {
  const int tiles = 16;
  float *data;
  cudaMalloc(&data, tiles * 128 * sizeof(float));
  scale_tiles<<<tiles, 128>>>(data, 2.0f);
  cudaDeviceSynchronize();
  cudaFree(data);
  printf("done\n");
  return 0;
}
