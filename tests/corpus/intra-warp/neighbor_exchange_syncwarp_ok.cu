// category: intra-warp
// expect: race-free
// The neighbour exchange with __syncwarp() between publishing and reading.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void rotateLeft(const int *in, int *out) {
  __shared__ int buf[4][32];
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  buf[warp][lane] = in[threadIdx.x];
  __syncwarp();
  if (lane < 31)
    out[threadIdx.x] = buf[warp][lane + 1];
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
