// category: host-values
// expect: race-free
// needs: host-facts
// source: benchmark drivers that choose the block size from a mode flag
// Every case of the switch sets the block size, and none is wider than
// the 256 elements each block's slice holds; the mode that would need
// more returns first. The kernel-only analysis sees any block size.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void scaleSlices(float *data, int n) {
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n)
    data[i] *= 0.5f;
}

int main(int argc, char **argv) {
  int mode = argc > 1 ? atoi(argv[1]) : 0;
  int threads;
  switch (mode) {
  case 0:
    threads = 256;
    break;
  case 1:
    threads = 128;
    break;
  case 2:
    fprintf(stderr, "mode 2 needs 512 threads per block\n");
    return 1;
  default:
    threads = 64;
    break;
  }
  const int n = 1 << 20;
  float *data;
  cudaMalloc(&data, n * sizeof(float));
  cudaMemset(data, 0, n * sizeof(float));
  scaleSlices<<<n / 256, threads>>>(data, n);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(data);
  return 0;
}
