// category: thread-local
// expect: race-free
// Each thread keeps the two output slots it owns in a local array; the
// array is private to the thread, and the slots differ between threads.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void splitPairs(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int slot[2];
  slot[0] = 2 * i;
  slot[1] = 2 * i + 1;
  if (i < n) {
    out[slot[0]] = in[i] / 2;
    out[slot[1]] = in[i] - in[i] / 2;
  }
}

int main() {
  const int n = 4096;
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, 2 * n * sizeof(int));
  cudaMemset(in, 0, n * sizeof(int));
  splitPairs<<<n / 256, 256>>>(in, out, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  printf("done\n");
  return 0;
}
