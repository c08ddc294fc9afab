// category: host-launch-dims
// source: activation-function benchmarks that check a vectorized kernel
// at every block size of a list (`for (int block_size : block_sizes)`).
// The kernel handles four floats per thread and leaves the last n % 4
// elements to a tail loop that steps by blockDim.x, not by the grid: with
// fewer than four left, only threads 0-2 of block 0 enter it, provided the
// block has at least three threads, which every size in the list gives.
// needs: host-facts
// expect: race-free
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void halveVectorized(const float *x, float *out, unsigned long n) {
  unsigned long i = (unsigned long)blockDim.x * blockIdx.x + threadIdx.x;
  unsigned long quads = n / 4;
  if (i < quads) {
    float4 v = reinterpret_cast<const float4 *>(x)[i];
    v.x *= 0.5f;
    v.y *= 0.5f;
    v.z *= 0.5f;
    v.w *= 0.5f;
    reinterpret_cast<float4 *>(out)[i] = v;
  }
  for (unsigned long j = 4 * quads + i; j < n; j += blockDim.x)
    out[j] = 0.5f * x[j];
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s N\n", argv[0]);
    return 1;
  }
  unsigned long n = strtoul(argv[1], nullptr, 10);
  float *x, *out;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  int block_sizes[] = {64, 128, 256, 512, 1024};
  for (int block_size : block_sizes) {
    unsigned long quads = n / 4;
    int blocks = (int)((quads + block_size - 1) / block_size) + 1;
    halveVectorized<<<blocks, block_size>>>(x, out, n);
    cudaDeviceSynchronize();
  }
  printf("done\n");
  cudaFree(x);
  cudaFree(out);
  return 0;
}
