// category: intra-warp
// The lower half-warp synchronizes among itself with a 16-lane mask, then
// reads values written by the upper half, which the mask leaves out.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void pairHalves(const float *in, float *out) {
  __shared__ float buf[32];
  int lane = threadIdx.x;
  buf[lane] = in[lane]; // expect-race(a): intra-warp
  if (lane < 16) {
    __syncwarp(0x0000ffffu);
    out[lane] = buf[lane] + buf[lane + 16]; // expect-race(a): intra-warp
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
  pairHalves<<<1, 32>>>(in, out);
  cudaMemcpy(host, out, 16 * sizeof(float), cudaMemcpyDeviceToHost);
  printf("out[0] = %f\n", host[0]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
