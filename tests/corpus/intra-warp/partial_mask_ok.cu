// category: intra-warp
// expect: race-free
// The lower half-warp synchronizes with a 16-lane mask and reads only slots
// that lanes of the same mask wrote.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void reverseLowerHalf(const float *in, float *out) {
  __shared__ float buf[32];
  int lane = threadIdx.x;
  buf[lane] = in[lane];
  if (lane < 16) {
    __syncwarp(0x0000ffffu);
    out[lane] = buf[15 - lane];
  }
}

int main() {
  float host[32];
  for (int i = 0; i < 32; ++i)
    host[i] = static_cast<float>(i);
  float *in, *out;
  cudaMalloc(&in, sizeof(host));
  cudaMalloc(&out, 16 * sizeof(float));
  cudaMemcpy(in, host, sizeof(host), cudaMemcpyHostToDevice);
  reverseLowerHalf<<<1, 32>>>(in, out);
  cudaMemcpy(host, out, 16 * sizeof(float), cudaMemcpyDeviceToHost);
  printf("out[0] = %f\n", host[0]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
