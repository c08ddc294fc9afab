// category: barrier-divergence
// A strided loop whose trip count depends on the thread: threads with
// fewer iterations leave while the others still wait at the barrier.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void tiledSum(const float *in, float *out, int n) {
  __shared__ float buf[256];
  float acc = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    buf[threadIdx.x] = in[i];
    __syncthreads(); // expect-divergence: barrier-divergence
    acc += buf[(threadIdx.x + 1) % blockDim.x];
    __syncthreads(); // expect-divergence: barrier-divergence
  }
  out[threadIdx.x] = acc;
}

int main() {
  const int n = 1000;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, 256 * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  tiledSum<<<1, 256>>>(in, out, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  printf("done\n");
  return 0;
}
