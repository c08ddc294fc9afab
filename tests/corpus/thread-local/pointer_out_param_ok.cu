// category: thread-local
// expect: race-free
// A helper returns the thread's index through a pointer to a local.
#include <cstdio>
#include <cuda_runtime.h>

__device__ void globalIndex(int *index) { *index = blockIdx.x * blockDim.x + threadIdx.x; }

__global__ void square(const int *in, int *out, int n) {
  int i = 0;
  globalIndex(&i);
  if (i < n)
    out[i] = in[i] * in[i];
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
