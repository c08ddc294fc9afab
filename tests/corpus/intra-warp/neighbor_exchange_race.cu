// category: intra-warp
// source: GKLEE warpCommunicate
// Lanes publish a value in shared memory and read their neighbour's without
// __syncwarp: under independent thread scheduling the neighbour may not have
// written yet.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void rotateLeft(const int *in, int *out) {
  __shared__ int buf[4][32];
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  buf[warp][lane] = in[threadIdx.x]; // expect-race(a): intra-warp
  if (lane < 31)
    out[threadIdx.x] = buf[warp][lane + 1]; // expect-race(a): intra-warp
}

int main() {
  const int threads = 128;
  int host[threads];
  for (int i = 0; i < threads; ++i)
    host[i] = i;
  int *in, *out;
  cudaMalloc(&in, sizeof(host));
  cudaMalloc(&out, sizeof(host));
  cudaMemcpy(in, host, sizeof(host), cudaMemcpyHostToDevice);
  rotateLeft<<<1, threads>>>(in, out);
  cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost);
  printf("out[0] = %d\n", host[0]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
