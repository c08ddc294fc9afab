// category: host-values
// source: a matrix class whose method launches without checking its shape
// The class of matrix_class_square_assert_ok.cu without the assert: a
// matrix built with a stride shorter than its rows (a view that packs two
// rows per stride is one way to get there) makes thread c of block r and
// thread c - stride of block r + 1 clear the same element, each block to
// its row number.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void clearRows(float *a, int rows, int cols, int stride) {
  int r = blockIdx.x;
  int c = threadIdx.x;
  if (r < rows && c < cols)
    a[r * stride + c] = r; // expect-race(clear): inter-block
}

class DeviceMatrix {
public:
  DeviceMatrix(int rows, int cols, int stride) : rows_(rows), cols_(cols), stride_(stride) {
    cudaMalloc(&data_, rows_ * cols_ * sizeof(float));
  }
  ~DeviceMatrix() { cudaFree(data_); }

  void clear() { clearRows<<<rows_, cols_>>>(data_, rows_, cols_, stride_); }

private:
  int rows_;
  int cols_;
  int stride_;
  float *data_ = nullptr;
};

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 128;
  DeviceMatrix m(n, n, n / 2);
  m.clear();
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
