// category: host-values
// needs: host-facts
// source: benchmark drivers that choose the block size from a mode flag
// Mode 2 has no break: it sets 512 threads and falls through into the
// default case, which keeps them. With 512 threads, thread 256 of block 0
// scales the element thread 0 of block 1 scales.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void scaleSlices(float *data, int n) {
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n)
    data[i] *= 0.5f; // expect-race(a): inter-block
}

int main(int argc, char **argv) {
  int mode = argc > 1 ? atoi(argv[1]) : 2;
  int threads = 256;
  switch (mode) {
  case 1:
    threads = 128;
    break;
  case 2:
    threads = 512;
  default:
    printf("mode %d: %d threads per block\n", mode, threads);
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
