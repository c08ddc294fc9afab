// category: host-launch-dims
// The kernel assumes 128 threads per block when it places each block's
// segment, but the host launches 256: the second half of block b writes the
// first half of block b + 1's segment. The kernel alone is race-free for
// the block size it assumes; the launch makes it racy.
#include <cstdio>
#include <cuda_runtime.h>

#define SEGMENT 128

__global__ void fillSegments(float *out, float value) {
  out[blockIdx.x * SEGMENT + threadIdx.x] = value; // expect-race(a): inter-block
}

int main() {
  const int blocks = 64;
  int threads = 256;
  float *out;
  cudaMalloc(&out, (blocks + 1) * SEGMENT * sizeof(float));
  fillSegments<<<blocks, threads>>>(out, 1.0f);
  cudaDeviceSynchronize();
  cudaFree(out);
  printf("done\n");
  return 0;
}
