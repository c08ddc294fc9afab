// category: global-memory
// source: the repeated-update kernel of stream-overlap benchmarks, where a
// later pass reads the neighbour's output through the conditional lvalue
// (`(pass == 0 ? in[i] : out[i + 1])`): the neighbour may be writing it
// in the same pass.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void incrementFromNeighbour(int *out, const int *in, int n, int passes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    for (int pass = 0; pass < passes; ++pass)
      out[i] = (pass == 0 ? in[i] : out[i + 1]) + 1; // expect-race(a): intra-warp
}

int main() {
  const int n = 1 << 20;
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMemset(in, 0, n * sizeof(int));
  incrementFromNeighbour<<<n / 256, 256>>>(out, in, n, 4);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(in);
  cudaFree(out);
  return 0;
}
