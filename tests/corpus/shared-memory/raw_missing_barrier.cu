// category: shared-memory
// A thread reads the tile slot written by the thread one warp further on,
// with no barrier between the write and the read.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void shiftByWarp(const float *in, float *out) {
  __shared__ float tile[128];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  tile[t] = in[g]; // expect-race(a): intra-block
  if (t + 32 < blockDim.x)
    out[g] = tile[t + 32]; // expect-race(a): intra-block
}

int main() {
  const int blocks = 8, threads = 128, n = blocks * threads;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  shiftByWarp<<<blocks, threads>>>(in, out);
  cudaDeviceSynchronize();
  float first;
  cudaMemcpy(&first, out, sizeof(float), cudaMemcpyDeviceToHost);
  printf("out[0] = %f\n", first);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
