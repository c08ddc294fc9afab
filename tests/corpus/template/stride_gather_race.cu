// category: template
// A gather templated on its stride. The STRIDE = 0 instantiation copies each
// element onto itself; STRIDE = 1 reads the element its neighbour writes.
#include <cstdio>
#include <cuda_runtime.h>

template <int STRIDE>
__global__ void gatherInPlace(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + STRIDE < n)
    a[i] = a[i + STRIDE]; // expect-race(a): intra-warp
}

int main() {
  const int n = 1 << 12;
  float *a;
  cudaMalloc(&a, n * sizeof(float));
  cudaMemset(a, 0, n * sizeof(float));
  gatherInPlace<0><<<n / 256, 256>>>(a, n);
  gatherInPlace<1><<<n / 256, 256>>>(a, n);
  cudaDeviceSynchronize();
  cudaFree(a);
  printf("done\n");
  return 0;
}
