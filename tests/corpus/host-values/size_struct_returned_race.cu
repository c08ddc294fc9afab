// category: host-values
// needs: host-facts
// source: matrix code that returns its shape in a small struct
// As size_struct_returned_ok, but the returned stride is half the row
// length: each row's second half is the next row's first half.
#include <cstdio>
#include <cuda_runtime.h>

struct Shape {
  int rows;
  int cols;
  int stride;
};

Shape shapeFor(int n) {
  return Shape{n, 64, 32};
}

__global__ void negate(float *m, int stride) {
  m[blockIdx.x * stride + threadIdx.x] *= -1.0f; // expect-race(a): inter-block
}

int main() {
  Shape s = shapeFor(512);
  float *m;
  cudaMalloc(&m, (s.rows + 1) * s.cols * sizeof(float));
  negate<<<s.rows, s.cols>>>(m, s.stride);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(m);
  return 0;
}
