// category: host-values
// expect: race-free
// needs: host-facts
// source: time-stepping simulations that count simulated time in a float
// The host counts time in a `float` that only ever holds whole numbers
// (starts at 0, steps by an int), and each launch runs
// `fminf(chunk, total - t)` steps. Since t < total and both are whole, every
// launch runs at least one step, so the `steps == 0` fallback, where every
// thread writes the same cell, never runs.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void advance(float *field, int steps) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (steps > 0) {
    for (int s = 0; s < steps; ++s)
      field[c] = field[c] * 0.5f + 1.0f;
  } else {
    field[0] = (float)c; // only reachable when a launch runs no step
  }
}

int main(int argc, char **argv) {
  int total, chunk;
  if (argc < 3 || (total = atoi(argv[1])) <= 0 || (chunk = atoi(argv[2])) <= 0) {
    fprintf(stderr, "usage: %s total chunk (both positive)\n", argv[0]);
    return 1;
  }
  float *field;
  cudaMalloc(&field, 4096 * sizeof(float));
  for (float t = 0; t < total; t += chunk)
    advance<<<16, 256>>>(field, (int)fminf(chunk, total - t));
  cudaDeviceSynchronize();
  cudaFree(field);
  return 0;
}
