// category: host-aliasing
// expect: race-free
// source: multi-GPU and multi-stream samples that keep one plan struct per
// device or stream, each with its own input and output allocations
// Each plan's input and output come from their own cudaMalloc into a field
// of an array element. The kernel reads a neighbour of its output slot,
// which races only if the two pointers share a buffer; they never do.
#include <cstdio>
#include <cuda_runtime.h>

struct StreamPlan {
  float *d_src;
  float *d_dst;
  int count;
  cudaStream_t stream;
};

__global__ void shiftLeft(const float *src, float *dst, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < count)
    dst[i] = src[i + 1];
}

int main() {
  const int plans = 2, count = 1 << 16;
  StreamPlan plan[plans];
  for (int p = 0; p < plans; ++p) {
    plan[p].count = count;
    cudaStreamCreate(&plan[p].stream);
    cudaMalloc(&plan[p].d_src, count * sizeof(float));
    cudaMalloc(&plan[p].d_dst, count * sizeof(float));
    cudaMemsetAsync(plan[p].d_src, 0, count * sizeof(float), plan[p].stream);
  }
  for (int p = 0; p < plans; ++p)
    shiftLeft<<<count / 256, 256, 0, plan[p].stream>>>(plan[p].d_src, plan[p].d_dst, count);
  // One plan's output feeds the next plan's input: different elements.
  shiftLeft<<<count / 256, 256>>>(plan[0].d_dst, plan[1].d_src, count);
  cudaDeviceSynchronize();
  for (int p = 0; p < plans; ++p) {
    cudaFree(plan[p].d_src);
    cudaFree(plan[p].d_dst);
    cudaStreamDestroy(plan[p].stream);
  }
  printf("done\n");
  return 0;
}
