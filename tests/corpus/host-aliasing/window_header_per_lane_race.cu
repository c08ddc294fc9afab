// category: host-aliasing
// source: the window-header kernels, where each thread picks one of two
// starts by the parity of its index. The header is read-only, but threads
// that read different words see different starts: with starts 0 and 1,
// thread 2 (start 0) and thread 1 (start 1) both write element 2, and
// the same happens at the edges of warps and blocks.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void halveFromStart(const int *starts, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int start = starts[threadIdx.x & 1];
  if (start + i < n)
    out[start + i] = 0.5f * in[i]; // expect-race(a): intra-warp
}

int main() {
  const int n = 1 << 16;
  int two_starts[2] = {0, 1};
  int *starts;
  float *in, *out;
  cudaMalloc(&starts, sizeof two_starts);
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(starts, two_starts, sizeof two_starts, cudaMemcpyHostToDevice);
  cudaMemset(in, 0, n * sizeof(float));
  halveFromStart<<<n / 256, 256>>>(starts, in, out, n);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(starts);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
