// category: loop-induction
// expect: race-free
// needs: host-facts
// source: a recursive filter run along each row of a pitched image
// Each thread filters its own row: a pointer walks the row forwards and
// then back by a byte step (`c = (float *)((char *)c + step)`), the way
// code written for any element interleave does. The forward pass runs
// len - 1 steps and leaves the pointer on the row's last element, the
// backward pass brings it back to the first, so no thread leaves its row
// (rows start pitch = width floats apart).
#include <cstdio>
#include <cuda_runtime.h>

__device__ void smoothRow(float *line, unsigned len, int step) {
  float *c = line;
  float prev = *c;
  for (unsigned n = 1; n < len; n++) {
    c = (float *)((char *)c + step);
    *c = prev = 0.5f * *c + prev;
  }
  for (int n = len - 2; 0 <= n; n--) {
    c = (float *)((char *)c - step);
    *c = prev = 0.5f * (prev - *c);
  }
}

__global__ void smoothRows(float *image, unsigned pitch, unsigned width, unsigned height) {
  unsigned y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y < height)
    smoothRow((float *)((char *)image + y * pitch), width, sizeof(float));
}

int main() {
  const unsigned width = 100, height = 300;
  float *image;
  cudaMalloc(&image, width * height * sizeof(float));
  cudaMemset(image, 0, width * height * sizeof(float));
  smoothRows<<<(height + 63) / 64, 64>>>(image, width * sizeof(float), width, height);
  float first = 0;
  cudaMemcpy(&first, image, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", first);
  cudaFree(image);
  return 0;
}
