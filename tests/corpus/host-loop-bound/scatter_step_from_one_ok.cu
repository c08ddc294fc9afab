// category: host-loop-bound
// expect: race-free
// needs: host-facts
// Scatters with a step taken from the host loop; the loop starts at 1, so
// t * step is distinct for distinct threads.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scatter(float *out, int step) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t * step] = static_cast<float>(t);
}

int main() {
  const int threads = 256, blocks = 16, maxStep = 4;
  float *out;
  cudaMalloc(&out, threads * blocks * maxStep * sizeof(float));
  for (int step = 1; step <= maxStep; ++step)
    scatter<<<blocks, threads>>>(out, step);
  cudaDeviceSynchronize();
  cudaFree(out);
  printf("done\n");
  return 0;
}
