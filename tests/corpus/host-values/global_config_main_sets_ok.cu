// category: host-values
// expect: race-free
// source: streaming sample whose sizes and launch shape are file-scope globals
// The element count, the block and the grid are globals; only `main` sets
// them (halving the count on request), and the launch is in a function
// `main` calls. The grid is 2D only when the count needs more than 65535
// blocks; the kernel ignores blockIdx.y, so it is race-free exactly
// because the count stays below that: grid.y is 1.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void increment(int *out, const int *in, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n)
    out[idx] = in[idx] + 1;
}

int N = 1 << 22;
dim3 block(256);
dim3 grid;
int *d_in, *d_out;

void process(int reps) {
  for (int r = 0; r < reps; ++r)
    increment<<<grid, block>>>(d_out, d_in, N);
  cudaDeviceSynchronize();
}

int main(int argc, char **argv) {
  if (argc > 1)
    N = N / 2;
  int blocks = N / block.x;
  grid.x = blocks % 65535;
  grid.y = blocks / 65535 + 1;
  cudaMalloc(&d_in, N * sizeof(int));
  cudaMalloc(&d_out, N * sizeof(int));
  cudaMemset(d_in, 0, N * sizeof(int));
  process(4);
  printf("done\n");
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
