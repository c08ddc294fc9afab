// category: host-values
// source: streaming sample whose sizes and launch shape are file-scope globals
// As global_config_main_sets_ok.cu, with a count of 2^25: 131072 blocks
// of 256 need a second row of the grid (grid.y = 3), and the blocks of
// each row add into the same elements, since the kernel ignores blockIdx.y.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void increment(int *out, const int *in, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n)
    out[idx] += in[idx]; // expect-race(dup): inter-block
}

int N = 1 << 25;
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
