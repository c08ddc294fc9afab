// category: host-launch-dims
// One kernel, two launch sites: the warm-up launch uses one block and is
// safe; the main launch uses several blocks, whose threads share the
// threadIdx-indexed slots and store different values there (each block
// its own offset), so which store lands last matters.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void clearScratch(float *scratch, float value) {
  scratch[threadIdx.x] = value + blockIdx.x; // expect-race(a): inter-block
}

int main() {
  float *scratch;
  cudaMalloc(&scratch, 256 * sizeof(float));
  clearScratch<<<1, 256>>>(scratch, 0.0f);
  cudaDeviceSynchronize();
  clearScratch<<<4, 256>>>(scratch, 1.0f);
  cudaDeviceSynchronize();
  cudaFree(scratch);
  printf("done\n");
  return 0;
}
