// category: host-launch-dims
// expect: race-free
// needs: host-facts
// source: HeCBench expDistance (HGRD Table 3)
// Per-thread partial sums are stored by threadIdx only; the host launches a
// single block, so no two threads share a slot.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void expDistance(const float *a, const float *b, float *partial,
                            int n) {
  float sum = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    float d = a[i] - b[i];
    sum += expf(-d * d);
  }
  partial[threadIdx.x] = sum;
}

int main() {
  const int n = 100000, threads = 512;
  float *a, *b, *partial;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&partial, threads * sizeof(float));
  cudaMemset(a, 0, n * sizeof(float));
  cudaMemset(b, 0, n * sizeof(float));
  expDistance<<<1, threads>>>(a, b, partial, n);
  float host[threads];
  cudaMemcpy(host, partial, sizeof(host), cudaMemcpyDeviceToHost);
  float total = 0.0f;
  for (int i = 0; i < threads; ++i)
    total += host[i];
  printf("distance %f\n", total);
  cudaFree(a);
  cudaFree(b);
  cudaFree(partial);
  return 0;
}
