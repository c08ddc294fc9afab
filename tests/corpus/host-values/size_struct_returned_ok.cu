// category: host-values
// expect: race-free
// needs: host-facts
// source: matrix code that returns its shape in a small struct
// The matrix shape comes back from a function by value (`Shape s =
// shapeFor(n)`): the stride it returns is the row length, and the launch
// covers exactly the rows and columns, so no two threads share an element.
#include <cstdio>
#include <cuda_runtime.h>

struct Shape {
  int rows;
  int cols;
  int stride;
};

Shape shapeFor(int n) {
  Shape s;
  s.rows = n;
  s.cols = 64;
  s.stride = s.cols;
  return s;
}

__global__ void negate(float *m, int stride) {
  m[blockIdx.x * stride + threadIdx.x] *= -1.0f;
}

int main() {
  Shape s = shapeFor(512);
  float *m;
  cudaMalloc(&m, s.rows * s.stride * sizeof(float));
  negate<<<s.rows, s.cols>>>(m, s.stride);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(m);
  return 0;
}
