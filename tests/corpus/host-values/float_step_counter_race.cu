// category: host-values
// source: time-stepping simulations that count simulated time in a float
// As float_step_counter_ok.cu, but time steps by half a chunk
// (`t += chunk * 0.5f`): with total 3 and chunk 1, the step at t = 2.5
// runs `(int)0.5 == 0` steps, and every thread of every block writes the
// fallback cell.
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
    field[0] = (float)c; // expect-race(fallback): inter-block
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
  for (float t = 0; t < total; t += chunk * 0.5f)
    advance<<<16, 256>>>(field, (int)fminf(chunk, total - t));
  cudaDeviceSynchronize();
  cudaFree(field);
  return 0;
}
