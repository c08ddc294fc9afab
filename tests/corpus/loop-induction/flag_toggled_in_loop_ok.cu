// category: loop-induction
// source: ping-pong kernels that flip a boolean once per pass to pick
// which half of a double buffer holds the result
// `front` flips on every pass, the same way for every thread, and picks
// where each thread writes after the loop: one slot per thread in either
// half, race-free. The flag is a bool that the loop writes, so the model
// gives it one value for all threads at the loop's exit.
// expect: race-free
#include <cstdio>
#include <cuda_runtime.h>

__global__ void settle(float *buffers, int n, int passes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  bool front = true;
  float value = 0.0f;
  for (int p = 0; p < passes; ++p) {
    value = value * 0.5f + 1.0f;
    front = !front;
  }
  int slot = front ? i : n + i;
  buffers[slot] = value;
}

int main() {
  const int n = 1 << 16;
  float *d_buffers;
  cudaMalloc(&d_buffers, 2 * n * sizeof(float));
  settle<<<n / 256, 256>>>(d_buffers, n, 5);
  cudaDeviceSynchronize();
  cudaFree(d_buffers);
  printf("done\n");
  return 0;
}
