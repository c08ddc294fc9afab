// category: host-aliasing
// source: multi-GPU and multi-stream samples that keep one plan struct per
// device or stream, each with its own input and output allocations
// The second plan's input is set to the first plan's output instead of an
// allocation of its own, and the launch then passes both: the read of a
// neighbour meets another thread's write in one buffer.
#include <cstdio>
#include <cuda_runtime.h>

struct StreamPlan {
  float *d_src;
  float *d_dst;
};

__global__ void shiftLeftShared(const float *src, float *dst, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < count)
    dst[i] = src[i + 1]; // expect-race(a): inter-block
}

int main() {
  const int count = 1 << 16;
  StreamPlan plan[2];
  cudaMalloc(&plan[0].d_src, count * sizeof(float));
  cudaMalloc(&plan[0].d_dst, count * sizeof(float));
  plan[1].d_src = plan[0].d_dst; // chained in place
  cudaMalloc(&plan[1].d_dst, count * sizeof(float));
  shiftLeftShared<<<count / 256, 256>>>(plan[1].d_src, plan[0].d_dst, count);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(plan[0].d_src);
  cudaFree(plan[0].d_dst);
  cudaFree(plan[1].d_dst);
  return 0;
}
