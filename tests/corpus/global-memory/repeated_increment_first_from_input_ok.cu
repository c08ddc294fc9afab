// category: global-memory
// source: stream-overlap benchmarks whose kernel repeats a small update to
// make work: the first pass reads the input, every later pass reads back
// the output the same thread wrote, chosen by a conditional lvalue
// (`(pass == 0 ? in[i] : out[i])`). Only the branch taken is read, and
// both branches are the thread's own element.
// expect: race-free
#include <cstdio>
#include <cuda_runtime.h>

__global__ void incrementRepeatedly(int *out, const int *in, int n, int passes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int pass = 0; pass < passes; ++pass)
      out[i] = (pass == 0 ? in[i] : out[i]) + 1;
}

int main() {
  const int n = 1 << 20;
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMemset(in, 0, n * sizeof(int));
  incrementRepeatedly<<<n / 256, 256>>>(out, in, n, 4);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(in);
  cudaFree(out);
  return 0;
}
