// category: host-values
// expect: race-free
// needs: host-facts
// source: samples that reject unsupported sizes and return early
// A width read from the command line that is not a multiple of 64 makes
// main return before the launch, and the path that sets 1024 threads per
// block returns too: only the paths that reach the launch count.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void copyTiles(const float *in, float *out, int width) {
  int i = blockIdx.x * 64 + threadIdx.x;
  out[i] = in[i % width];
}

int main(int argc, char **argv) {
  int width = 4096;
  int threads = 64;
  if (argc > 1) {
    width = atoi(argv[1]);
    if (width <= 0 || width % 64 != 0) {
      fprintf(stderr, "width must be a positive multiple of 64\n");
      return 1;
    }
  }
  if (argc > 2) {
    threads = 1024;
    fprintf(stderr, "1024-thread blocks are not supported\n");
    return 1;
  }
  float *in, *out;
  cudaMalloc(&in, width * sizeof(float));
  cudaMalloc(&out, width * sizeof(float));
  copyTiles<<<width / 64, threads>>>(in, out, width);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(in);
  cudaFree(out);
  return 0;
}
