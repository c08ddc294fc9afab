// category: scoped-atomic
// expect: race-free
// needs: sync-semantics
// source: ScoR 1D convolution
// The scope is chosen by the output location: the first and last output of
// each block, which neighbouring blocks also update, always get
// device-scope adds; interior outputs are only touched by their own block.
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
    int pos = k % blockDim.x;
    if (pos != 0 && pos != blockDim.x - 1)
      atomicAdd_block(&out[k], v);
    else
      atomicAdd(&out[k], v);
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
