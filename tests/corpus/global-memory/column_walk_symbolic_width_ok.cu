// category: global-memory
// expect: race-free
// source: separable image filters (a vertical pass, one thread per column)
// Each thread walks its own column of a w-wide image: y * w + x against
// y' * w + x' with x, x' < w never meet for two threads. The width is a
// kernel argument, so the overlap is a product of a thread's row and a
// launch-wide value, decided without a fixed width.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void columnPrefix(const float *in, float *out, int w, int h) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= w)
    return;
  float sum = 0;
  for (int y = 0; y < h; y++) {
    sum += in[y * w + x];
    out[y * w + x] = sum;
  }
}

int main(int argc, char **argv) {
  int w = argc > 1 ? atoi(argv[1]) : 640;
  int h = argc > 2 ? atoi(argv[2]) : 480;
  float *in, *out;
  cudaMalloc(&in, w * h * sizeof(float));
  cudaMalloc(&out, w * h * sizeof(float));
  cudaMemset(in, 0, w * h * sizeof(float));
  columnPrefix<<<(w + 63) / 64, 64>>>(in, out, w, h);
  float last;
  cudaMemcpy(&last, out + w * h - 1, sizeof(float), cudaMemcpyDeviceToHost);
  printf("last = %f\n", last);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
