// category: global-memory
// source: the shape of tensor concatenation kernels
// A two-part copy whose second part reads the output itself, one element
// on, instead of a second input: the source pointer chosen by the branch
// is then the output for the threads past the split, and a thread reads
// the element its neighbour writes.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void joinShifted(const float *first, float *out, int n, int split) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 >= n)
    return;
  const float *src;
  if (i < split)
    src = first;
  else
    src = out;
  float v = src[i + 1]; // expect-race(NEXT): intra-warp
  out[i] = v; // expect-race(NEXT): intra-warp
}

int main() {
  const int n = 1 << 16;
  float *first, *out;
  cudaMalloc(&first, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  joinShifted<<<(n + 255) / 256, 256>>>(first, out, n, n / 2);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(first);
  cudaFree(out);
  return 0;
}
