// category: global-memory
// source: separable image filters (a vertical pass, one thread per column)
// The output rows are laid out one element too short: the last column of
// row y (x = w - 1) is the first column of row y + 1 (x = 0), written by
// the first and the last thread of the launch.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void columnCopyShortRows(const float *in, float *out, int w, int h) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= w)
    return;
  for (int y = 0; y < h; y++)
    out[y * (w - 1) + x] = in[y * w + x]; // expect-race(a): inter-block
}

int main() {
  const int w = 1024, h = 768;
  float *in, *out;
  cudaMalloc(&in, w * h * sizeof(float));
  cudaMalloc(&out, w * h * sizeof(float));
  cudaMemset(in, 0, w * h * sizeof(float));
  columnCopyShortRows<<<w / 64, 64>>>(in, out, w, h);
  float first;
  cudaMemcpy(&first, out, sizeof(float), cudaMemcpyDeviceToHost);
  printf("first = %f\n", first);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
