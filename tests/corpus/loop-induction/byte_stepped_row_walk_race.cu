// category: loop-induction
// needs: host-facts
// source: a recursive filter run along each row of a pitched image
// The forward pass of the same filter, launched with a pitch one float
// short of the row: a row's last element is the next row's first, which
// the next thread reads before its walk while this one writes it at the
// end of its own (threads 32 and 33 of one warp, say).
#include <cstdio>
#include <cuda_runtime.h>

__device__ void smoothRow(float *line, unsigned len, int step) {
  float *c = line;
  float prev = *c; // expect-race(a): intra-warp
  for (unsigned n = 1; n < len; n++) {
    c = (float *)((char *)c + step);
    *c = prev = 0.5f * *c + prev; // expect-race(a): intra-warp
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
  smoothRows<<<(height + 63) / 64, 64>>>(image, (width - 1) * sizeof(float), width, height);
  float first = 0;
  cudaMemcpy(&first, image, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", first);
  cudaFree(image);
  return 0;
}
