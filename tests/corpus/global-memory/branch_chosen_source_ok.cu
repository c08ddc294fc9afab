// category: global-memory
// expect: race-free
// source: the shape of tensor concatenation kernels
// Concatenates two tensors along their middle dimension: each thread owns
// one output element and copies it from the first or the second input,
// chosen by a branch on its coordinate. After the branch the source
// pointer is one of the two inputs, neither of which the kernel writes.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void concatMiddle(const float *first, const float *second, float *out,
                             int outer, int inner, int mid1, int mid2) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int total = outer * (mid1 + mid2) * inner;
  if (idx >= total)
    return;
  int k = idx % inner;
  int j = (idx / inner) % (mid1 + mid2);
  int o = idx / inner / (mid1 + mid2);
  const float *src;
  int mid;
  if (j < mid1) {
    src = first;
    mid = mid1;
  } else {
    src = second;
    j -= mid1;
    mid = mid2;
  }
  out[idx] = src[(o * mid + j) * inner + k];
}

int main() {
  const int outer = 8, inner = 64, mid1 = 300, mid2 = 724;
  const int total = outer * (mid1 + mid2) * inner;
  float *first, *second, *out;
  cudaMalloc(&first, outer * mid1 * inner * sizeof(float));
  cudaMalloc(&second, outer * mid2 * inner * sizeof(float));
  cudaMalloc(&out, total * sizeof(float));
  concatMiddle<<<(total + 255) / 256, 256>>>(first, second, out, outer, inner,
                                              mid1, mid2);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(first);
  cudaFree(second);
  cudaFree(out);
  return 0;
}
