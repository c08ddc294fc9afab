// category: thread-local
// The helper forgets the block: threads with the same threadIdx in
// different blocks add into the same element.
#include <cstdio>
#include <cuda_runtime.h>

__device__ void localIndex(int *index) { *index = threadIdx.x; }

__global__ void square(const int *in, int *out, int n) {
  int i = 0;
  localIndex(&i);
  if (i < n)
    out[i] += in[i] * in[i]; // expect-race(a): inter-block
}

int main() {
  const int n = 4096;
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMemset(in, 0, n * sizeof(int));
  square<<<n / 256, 256>>>(in, out, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  printf("done\n");
  return 0;
}
