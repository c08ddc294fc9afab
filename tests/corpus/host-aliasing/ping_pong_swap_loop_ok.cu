// category: host-aliasing
// expect: race-free
// source: iterative stencil solvers (Jacobi, heat diffusion): one launch
// per time step reads the current grid and writes the next, then the host
// exchanges the two pointers with std::swap; the result is copied back
// from whichever buffer the last step wrote.
// The loop only exchanges 'cur' and 'next', so no launch passes one
// allocation as both arguments, however many steps run.
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <cuda_runtime.h>

__global__ void diffuse(const float *cur, float *next, int width, float alpha) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x > 0 && x < width - 1)
    next[x] = cur[x] + alpha * (cur[x - 1] - 2.0f * cur[x] + cur[x + 1]);
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 100;
  const int width = 1 << 14;
  float *cur, *next;
  cudaMalloc(&cur, width * sizeof(float));
  cudaMalloc(&next, width * sizeof(float));
  cudaMemset(cur, 0, width * sizeof(float));
  cudaMemset(next, 0, width * sizeof(float));
  for (int t = 0; t < steps; ++t) {
    diffuse<<<width / 128, 128>>>(cur, next, width, 0.1f);
    std::swap(cur, next);
  }
  float sample = 0;
  cudaMemcpy(&sample, cur + width / 2, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", sample);
  cudaFree(cur);
  cudaFree(next);
  return 0;
}
