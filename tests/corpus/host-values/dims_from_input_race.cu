// category: host-values
// needs: host-facts
// source: samples that read the problem size from the command line
// The number of blocks comes from the command line, the buffer's row
// length is fixed at 4096: with more than 16 blocks of 256 the index wraps
// and two blocks write the same element. The race depends on a value the
// host reads from its input, which the result states.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void accumulate(float *row, int width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  row[i % width] += 1.0f; // expect-race(a): inter-block
}

int main(int argc, char **argv) {
  const int width = 4096;
  int blocks = 16;
  if (argc > 1)
    blocks = atoi(argv[1]);
  float *row;
  cudaMalloc(&row, width * sizeof(float));
  accumulate<<<blocks, 256>>>(row, width);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(row);
  return 0;
}
