// category: host-values
// source: launch sizes rounded up with ceil() of a floating-point quotient
// As ceil_block_count_ok.cu, but the grid is `ceil(n / 128.0)`: about
// twice as many blocks as slots, so block b and block b + parts (n = 257:
// blocks 0 and 2 of 3, with 2 slots) write one slot.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void partialSums(const float *in, float *partial, int n, int parts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  if (threadIdx.x == 0)
    partial[blockIdx.x % parts] = v; // expect-race(slot): inter-block
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
  int blocks = (int)ceil(n / 128.0);
  partialSums<<<blocks, 256>>>(in, partial, n, parts);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(partial);
  return 0;
}
