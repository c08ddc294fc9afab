// category: host-aliasing
// source: launch wrappers called both out of place and in place
// The wrapper is called twice: once with two buffers, once in place with
// one buffer for both. Each call is its own launch context; only the
// in-place one makes the read of a neighbour meet another thread's write.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void smoothRight(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    out[i] = 0.5f * (in[i] + in[i + 1]); // expect-race(a): inter-block
}

void smooth(const float *in, float *out, int n) {
  smoothRight<<<(n + 255) / 256, 256>>>(in, out, n);
}

int main() {
  const int n = 1 << 16;
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMemset(a, 0, n * sizeof(float));
  smooth(a, b, n);
  smooth(b, b, n);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(a);
  cudaFree(b);
  return 0;
}
