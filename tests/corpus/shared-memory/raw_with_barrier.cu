// category: shared-memory
// expect: race-free
// The same warp-shift as raw_missing_barrier.cu with the barrier in place.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void shiftByWarp(const float *in, float *out) {
  __shared__ float tile[128];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  tile[t] = in[g];
  __syncthreads();
  if (t + 32 < blockDim.x)
    out[g] = tile[t + 32];
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
