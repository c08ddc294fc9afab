// category: global-memory
// expect: race-free
// Vector addition: each thread writes its own element.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

__global__ void vectorAdd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 50000;
  size_t bytes = n * sizeof(float);
  std::vector<float> ha(n, 1.0f), hb(n, 2.0f), hc(n);
  float *a, *b, *c;
  cudaMalloc(&a, bytes);
  cudaMalloc(&b, bytes);
  cudaMalloc(&c, bytes);
  cudaMemcpy(a, ha.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb.data(), bytes, cudaMemcpyHostToDevice);
  int threads = 256;
  vectorAdd<<<(n + threads - 1) / threads, threads>>>(a, b, c, n);
  cudaMemcpy(hc.data(), c, bytes, cudaMemcpyDeviceToHost);
  printf("c[0] = %f\n", hc[0]);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return 0;
}
