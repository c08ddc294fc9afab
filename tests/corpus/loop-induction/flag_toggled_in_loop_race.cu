// category: loop-induction
// source: ping-pong kernels that flip a boolean once per pass to pick
// which half of a double buffer holds the result
// As flag_toggled_in_loop_ok.cu, but where `front` ends true (an even
// number of passes: main runs 4) pairs of threads share a slot in the
// front half. Threads 2k and 2k + 1 are in one warp.
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
  int slot = front ? i / 2 : n + i;
  buffers[slot] = value; // expect-race(R1): intra-warp
}

int main() {
  const int n = 1 << 16;
  float *d_buffers;
  cudaMalloc(&d_buffers, 2 * n * sizeof(float));
  settle<<<n / 256, 256>>>(d_buffers, n, 4);
  cudaDeviceSynchronize();
  cudaFree(d_buffers);
  printf("done\n");
  return 0;
}
