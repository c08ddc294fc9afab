// category: host-aliasing
// source: kernels that take the window they work on from a small header in
// device memory (a start and a count that a cudaMemcpy or an earlier kernel
// put there) rather than by value. Every thread reads the same two words of
// a buffer that nothing in the launch writes, so all threads see one start
// and one count, and the grid-stride walk gives each element to one thread.
// expect: race-free
#include <cstdio>
#include <cuda_runtime.h>

__global__ void halveWindow(const int *header, const float *in, float *out) {
  int start = header[0];
  int count = header[1];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += blockDim.x * gridDim.x)
    out[start + i] = 0.5f * in[start + i];
}

int main() {
  const int n = 1 << 16;
  int window[2] = {16, n - 16};
  int *header;
  float *in, *out;
  cudaMalloc(&header, sizeof window);
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(header, window, sizeof window, cudaMemcpyHostToDevice);
  cudaMemset(in, 0, n * sizeof(float));
  halveWindow<<<32, 256>>>(header, in, out);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(header);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
