// category: barrier-divergence
// The barrier sits inside a per-thread guard: when count is not a multiple
// of the block size, the threads past count never reach it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void scaleByFirst(float *v, int count) {
  __shared__ float first;
  int t = threadIdx.x;
  if (t < count) {
    if (t == 0)
      first = v[0];
    __syncthreads(); // expect-divergence: barrier-divergence
    v[t] = v[t] / first;
  }
}

int main(int argc, char **argv) {
  int count = argc > 1 ? atoi(argv[1]) : 200;
  if (count <= 0 || count > 256)
    return 1;
  float *v;
  cudaMalloc(&v, 256 * sizeof(float));
  cudaMemset(v, 0, 256 * sizeof(float));
  scaleByFirst<<<1, 256>>>(v, count);
  cudaDeviceSynchronize();
  cudaFree(v);
  printf("done\n");
  return 0;
}
