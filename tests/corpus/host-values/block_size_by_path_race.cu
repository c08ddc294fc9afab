// category: host-values
// needs: host-facts
// source: samples that pick a block size from the command line or a default
// As block_size_by_path_ok, but the --wide path launches 512-thread
// blocks: thread 256 of block 0 and thread 0 of block 1 both write
// out[256]. The value is exact on each path, so the race is certain once
// --wide is given.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void fillRows(float *out, int n) {
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n)
    out[i] = 0.5f * i; // expect-race(a): inter-block
}

int main(int argc, char **argv) {
  const int n = 1 << 20;
  int threads = 256;
  if (argc > 1 && strcmp(argv[1], "--wide") == 0)
    threads = 512;
  float *out;
  cudaMalloc(&out, n * sizeof(float));
  fillRows<<<n / 256, threads>>>(out, n);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(out);
  return 0;
}
