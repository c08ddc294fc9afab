// category: host-aliasing
// A smoothing kernel that is correct for separate input and output buffers
// is called with the same buffer for both: thread i reads in[i - 1] and
// in[i + 1] while its neighbours write them as out.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void smooth(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    out[i] = 0.5f * (in[i - 1] + in[i + 1]); // expect-race(a): intra-warp
}

int main() {
  const int n = 1 << 16;
  float *signal;
  cudaMalloc(&signal, n * sizeof(float));
  cudaMemset(signal, 0, n * sizeof(float));
  for (int pass = 0; pass < 3; ++pass)
    smooth<<<n / 256, 256>>>(signal, signal, n);
  cudaDeviceSynchronize();
  cudaFree(signal);
  printf("done\n");
  return 0;
}
