// category: host-aliasing
// expect: race-free
// needs: host-facts
// The smoothing kernel called with two distinct allocations, swapped
// between passes: input and output never alias within a launch.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void smooth(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    out[i] = 0.5f * (in[i - 1] + in[i + 1]);
}

int main() {
  const int n = 1 << 16;
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMemset(a, 0, n * sizeof(float));
  smooth<<<n / 256, 256>>>(a, b, n);
  smooth<<<n / 256, 256>>>(b, a, n);
  cudaDeviceSynchronize();
  cudaFree(a);
  cudaFree(b);
  printf("done\n");
  return 0;
}
