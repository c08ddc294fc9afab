// category: host-aliasing
// source: transformer-style kernels that take all their buffers and sizes
// in one parameter struct by value, built with a braced initializer
// (`Params p{out, in, bias, rows, cols}`). The output and the input are
// separate allocations, so each thread writes its own output element and
// reads only input and bias.
// expect: race-free
#include <cstdio>
#include <cuda_runtime.h>

struct AddBiasParams {
  float *out;
  const float *in;
  const float *bias;
  int rows;
  int cols;
};

__global__ void addBias(AddBiasParams p) {
  int row = blockIdx.x;
  for (int c = threadIdx.x; c < p.cols; c += blockDim.x)
    p.out[row * p.cols + c] = p.in[row * p.cols + c + 1] + p.bias[c];
}

int main() {
  const int rows = 512, cols = 768;
  float *in, *out, *bias;
  cudaMalloc(&in, (rows * cols + 1) * sizeof(float));
  cudaMalloc(&out, rows * cols * sizeof(float));
  cudaMalloc(&bias, cols * sizeof(float));
  cudaMemset(in, 0, (rows * cols + 1) * sizeof(float));
  cudaMemset(bias, 0, cols * sizeof(float));
  AddBiasParams params{out, in, bias, rows, cols};
  addBias<<<rows, 256>>>(params);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(in);
  cudaFree(out);
  cudaFree(bias);
  return 0;
}
