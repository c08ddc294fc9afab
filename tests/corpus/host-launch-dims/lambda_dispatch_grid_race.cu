// category: host-launch-dims
// needs: host-facts
// A dispatch macro turns a runtime unroll factor into a template argument
// through immediately-invoked lambdas, one inside another. The launch in
// the innermost lambda reads the grid, the block and the buffers through
// the lambdas' captures: the grid is one-dimensional (blockIdx.y is 0),
// and each block writes its own UNROLL * blockDim.x elements of `out`,
// a buffer apart from `in`. The second call writes the elements one
// past those it reads: a thread stores the element the next thread
// loads, and at each block's edge that thread is in the next block.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <cuda_runtime.h>

template <int UNROLL>
__global__ void halve(float *out, const float *in) {
  for (int k = 0; k < UNROLL; k++) {
    int row = (blockIdx.x * UNROLL + k) / 4;
    int col = ((blockIdx.x * UNROLL + k) % 4) * blockDim.x + threadIdx.x;
    out[row * 4 * blockDim.x + col] = in[row * 4 * blockDim.x + col] / 2; // expect-race(a): inter-block
  }
}

#define WITH_UNROLL(VALUE, NAME, ...)                                      \
  [&] {                                                                    \
    if (VALUE == 1) { constexpr int NAME = 1; return __VA_ARGS__(); }      \
    if (VALUE == 2) { constexpr int NAME = 2; return __VA_ARGS__(); }      \
    throw std::invalid_argument("unroll " + std::to_string(VALUE));        \
  }()

void halveAll(float *out, const float *in, long n) {
  const int threads = 128;
  int unroll = n % (threads * 2) == 0 ? 2 : 1;
  dim3 grid(n / (threads * unroll));
  WITH_UNROLL(unroll, UNROLL, [&] {
    WITH_UNROLL(1, ONE, [&] { halve<UNROLL * ONE><<<grid, threads>>>(out, in); });
  });
}

int main() {
  const long n = 1 << 16;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  halveAll(out, in, n);
  halveAll(in + 1, in, n - 256);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  printf("done\n");
  return 0;
}
