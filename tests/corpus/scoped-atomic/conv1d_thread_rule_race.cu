// category: scoped-atomic
// needs: sync-semantics
// source: ScoR 1D convolution
// Each input element adds its weighted value to three outputs. A thread
// picks block scope when the output lies in its own block and device scope
// otherwise, so a block-boundary output gets a block-scope add from its own
// block and a device-scope add from the neighbouring block.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scatterConv(const float *in, const float *w, float *out,
                            int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  for (int d = -1; d <= 1; ++d) {
    int k = i + d;
    if (k < 0 || k >= n)
      continue;
    float v = w[d + 1] * in[i];
    if (k / blockDim.x == blockIdx.x)
      atomicAdd_block(&out[k], v); // expect-race(a): scoped
    else
      atomicAdd(&out[k], v); // expect-race(a): scoped
  }
}

int main() {
  const int n = 1 << 16;
  float *in, *w, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&w, 3 * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  cudaMemset(w, 0, 3 * sizeof(float));
  cudaMemset(out, 0, n * sizeof(float));
  scatterConv<<<n / 256, 256>>>(in, w, out, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(w);
  cudaFree(out);
  printf("done\n");
  return 0;
}
