// category: host-values
// source: command-line benchmarks (Rodinia style): sizes are read with
// atoi inside the condition of a guard that prints the usage and exits,
// `if ((n = atoi(argv[1])) <= 0 || ...) usage(argv[0]);`, and the
// launch sits in a helper whose result initializes a local of main.
// Past the guard every operand of the || has run and been false, so the
// block size is the input, at least 1 and at most 512.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// Each block owns 256 consecutive elements: wider blocks overlap the next.
__global__ void scale(float *data, int n, float factor) {
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n)
    data[i] = data[i] * factor; // expect-race(wide): inter-block
}

void usage(const char *program) {
  fprintf(stderr, "usage: %s <elements> <block size, 1..512>\n", program);
  exit(1);
}

int run(int argc, char **argv) {
  int n, threads;
  if (argc != 3 || (n = atoi(argv[1])) <= 0 || (threads = atoi(argv[2])) <= 0 ||
      threads > 512)
    usage(argv[0]);
  float *data;
  cudaMalloc(&data, n * sizeof(float));
  cudaMemset(data, 0, n * sizeof(float));
  scale<<<(n + 255) / 256, threads>>>(data, n, 2.0f);
  float first = 0;
  cudaMemcpy(&first, data, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(data);
  return first == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
  int status = run(argc, argv);
  printf("status %d\n", status);
  return status;
}
