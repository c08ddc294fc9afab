// category: global-memory
// expect: race-free
// A __device__ lookup table filled by one launch (one entry per thread) and
// read by the next.
#include <cstdio>
#include <cuda_runtime.h>

#define ENTRIES 256

__device__ float g_gamma[ENTRIES];

__global__ void buildGammaTable(float gamma) {
  int i = threadIdx.x;
  g_gamma[i] = powf(i / 255.0f, gamma);
}

__global__ void applyGamma(const unsigned char *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = g_gamma[in[i]];
}

int main() {
  const int n = 640 * 480;
  unsigned char *in;
  float *out;
  cudaMalloc(&in, n);
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(in, 128, n);
  buildGammaTable<<<1, ENTRIES>>>(2.2f);
  applyGamma<<<(n + 255) / 256, 256>>>(in, out, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  printf("done\n");
  return 0;
}
