// category: shared-memory
// expect: race-free
// source: cooperative-groups block reductions (reduction samples)
// A tree reduction written with the block group's own rank and size instead
// of threadIdx and blockDim: the rank is the thread's linear index in its
// block, so each round's reads and writes are as disjoint as with threadIdx.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void blockSum(const float *in, float *out) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float partial[256];
  unsigned rank = block.thread_rank();
  partial[rank] = in[blockIdx.x * 256 + rank];
  cg::sync(block);
  for (unsigned stride = block.size() / 2; stride > 0; stride >>= 1) {
    if (rank < stride)
      partial[rank] += partial[rank + stride];
    cg::sync(block);
  }
  if (rank == 0)
    out[blockIdx.x] = partial[0];
}

int main() {
  const int blocks = 16;
  float *in, *out;
  cudaMalloc(&in, blocks * 256 * sizeof(float));
  cudaMalloc(&out, blocks * sizeof(float));
  cudaMemset(in, 0, blocks * 256 * sizeof(float));
  blockSum<<<blocks, 256>>>(in, out);
  float first;
  cudaMemcpy(&first, out, sizeof(float), cudaMemcpyDeviceToHost);
  printf("out[0] = %f\n", first);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
