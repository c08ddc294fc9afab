// category: host-loop-bound
// The same scatter with a host loop starting at 0: in the first launch every
// thread writes out[0].
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scatter(float *out, int step) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t * step] = static_cast<float>(t); // expect-race(a): inter-block
}

int main() {
  const int threads = 256, blocks = 16, maxStep = 4;
  float *out;
  cudaMalloc(&out, threads * blocks * maxStep * sizeof(float));
  for (int step = 0; step < maxStep; ++step)
    scatter<<<blocks, threads>>>(out, step);
  cudaDeviceSynchronize();
  cudaFree(out);
  printf("done\n");
  return 0;
}
