// category: volatile
// source: "last block done" bookkeeping written through a volatile pointer
// Every thread records its index in one volatile word. volatile keeps the
// store in memory, but does not make the threads' stores ordered or
// atomic: which index survives is a race.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void recordLast(const float *in, float *out, volatile int *last, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i] * 2.0f;
    *last = i; // expect-race(a): inter-block
  }
}

int main() {
  const int n = 1 << 12;
  float *in, *out;
  int *last;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&last, sizeof(int));
  cudaMemset(in, 0, n * sizeof(float));
  recordLast<<<n / 128, 128>>>(in, out, last, n);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(in);
  cudaFree(out);
  cudaFree(last);
  return 0;
}
