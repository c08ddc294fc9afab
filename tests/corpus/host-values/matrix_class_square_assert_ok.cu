// category: host-values
// expect: race-free
// needs: host-facts
// source: a matrix class whose method asserts squareness, then launches
// The kernel mirrors a matrix in place across its diagonal: thread (r, c)
// with r < c swaps A[r][c] and A[c][r]. That is race-free only when the
// matrix is square and its stride is its row length; the method's assert
// over the members of its own object states both, and the launch covers
// the rows and columns those members hold.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void mirror(float *a, int rows, int cols, int stride) {
  int r = blockIdx.x;
  int c = threadIdx.x;
  if (r < rows && c < cols && r < c) {
    float upper = a[r * stride + c];
    a[r * stride + c] = a[c * stride + r];
    a[c * stride + r] = upper;
  }
}

class DeviceMatrix {
public:
  DeviceMatrix(int rows, int cols) : rows_(rows), cols_(cols), stride_(cols) {
    cudaMalloc(&data_, rows_ * stride_ * sizeof(float));
  }
  ~DeviceMatrix() { cudaFree(data_); }

  void mirrorInPlace() {
    assert(rows_ == cols_ && stride_ == cols_);
    mirror<<<rows_, cols_>>>(data_, rows_, cols_, stride_);
  }

private:
  int rows_;
  int cols_;
  int stride_;
  float *data_ = nullptr;
};

int main() {
  DeviceMatrix m(256, 256);
  m.mirrorInPlace();
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
