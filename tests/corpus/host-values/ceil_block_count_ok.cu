// category: host-values
// expect: race-free
// needs: host-facts
// source: launch sizes rounded up with ceil() of a floating-point quotient
// One partial sum per block, in a table of `parts = (n + 255) / 256`
// slots indexed modulo its size. The host sizes the grid as
// `ceil(n / 256.0)`, the same number of blocks as slots, so the modulo
// never wraps and each block owns its slot.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void partialSums(const float *in, float *partial, int n, int parts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  if (threadIdx.x == 0)
    partial[blockIdx.x % parts] = v;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000000;
  if (n <= 0) {
    fprintf(stderr, "n must be positive\n");
    return 1;
  }
  int parts = (n + 255) / 256;
  float *in, *partial;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&partial, parts * sizeof(float));
  int blocks = (int)ceil(n / 256.0);
  partialSums<<<blocks, 256>>>(in, partial, n, parts);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(partial);
  return 0;
}
