// category: host-values
// expect: race-free
// needs: host-facts
// source: samples that pick a block size from the command line or a default
// The block size is assigned on two paths (128 with --small, else 256).
// The kernel indexes as if blocks had at most 256 threads, which both
// paths keep: the launch is race-free, but only the host code shows it.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void fillRows(float *out, int n) {
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n)
    out[i] = 0.5f * i;
}

int main(int argc, char **argv) {
  const int n = 1 << 20;
  int threads;
  if (argc > 1 && strcmp(argv[1], "--small") == 0)
    threads = 128;
  else
    threads = 256;
  float *out;
  cudaMalloc(&out, n * sizeof(float));
  fillRows<<<n / 256, threads>>>(out, n);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(out);
  return 0;
}
