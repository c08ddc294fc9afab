// category: host-launch-dims
// needs: host-facts
// source: inference kernels dispatched through a generic lambda per compile-time switch (the BOOL_SWITCH pattern of attention and scan libraries), the launch resolved only in the lambda's instantiations
// rowScale: as generic_lambda_dispatch_ok, but the launcher passes half the
// row length as the kernel's stride while launching `width` threads per
// block: block r's upper half stores block r + 1's lower half.
#include <cstdio>
#include <cuda_runtime.h>
#include <type_traits>

template <bool kGated>
__global__ void rowScale(const float *in, const float *gate, float *out, int width) {
  int row = blockIdx.x;
  int col = threadIdx.x;
  float v = in[row * width + col];
  if (kGated)
    v *= gate[row];
  out[row * width + col] = 2.0f * v; // expect-race(A): inter-block
}

void scaleRows(const float *in, const float *gate, float *out, int rows, int width) {
  auto launch = [&](auto gated) {
    rowScale<decltype(gated)::value><<<rows, width>>>(in, gate, out, width / 2);
  };
  if (gate)
    launch(std::true_type{});
  else
    launch(std::false_type{});
}

int main() {
  const int rows = 64, width = 256;
  float *in, *gate, *out;
  cudaMalloc(&in, rows * width * sizeof(float));
  cudaMalloc(&gate, rows * sizeof(float));
  cudaMalloc(&out, rows * width * sizeof(float));
  cudaMemset(in, 0, rows * width * sizeof(float));
  cudaMemset(gate, 0, rows * sizeof(float));
  scaleRows(in, gate, out, rows, width);
  float first = 0;
  cudaMemcpy(&first, out, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", first);
  cudaFree(in);
  cudaFree(gate);
  cudaFree(out);
  return 0;
}
