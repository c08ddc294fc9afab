// category: template
// expect: race-free
// A copy kernel templated on the element type and a functor, launched for
// float and double.
#include <cstdio>
#include <cuda_runtime.h>

struct Square {
  template <typename T> __device__ T operator()(T x) const { return x * x; }
};

template <typename T, typename Op>
__global__ void mapKernel(const T *in, T *out, int n, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = op(in[i]);
}

template <typename T> void runMap(int n) {
  T *in, *out;
  cudaMalloc(&in, n * sizeof(T));
  cudaMalloc(&out, n * sizeof(T));
  cudaMemset(in, 0, n * sizeof(T));
  mapKernel<T, Square><<<(n + 255) / 256, 256>>>(in, out, n, Square());
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
}

int main() {
  runMap<float>(100000);
  runMap<double>(50000);
  printf("done\n");
  return 0;
}
