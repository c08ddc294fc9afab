// The host side of ../split_tiles_race.cu.
#include <cstdio>

__global__ void scale_tiles_wide(float *data, float factor);

int main() {
  const int tiles = 16;
  float *data;
  cudaMalloc(&data, (tiles + 1) * 128 * sizeof(float));
  scale_tiles_wide<<<tiles, 256>>>(data, 2.0f);
  cudaDeviceSynchronize();
  cudaFree(data);
  printf("done\n");
  return 0;
}
