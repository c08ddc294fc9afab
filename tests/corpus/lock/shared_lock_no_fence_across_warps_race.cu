// category: lock
// needs: sync-semantics
// source: ScoR microbenchmarks (lock/unlock across warps, missing fence)
// The warps of a block take a shared-memory lock, but without fences the
// previous holder's update of the tally need not be visible to the next.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void tally(const int *in, int *out) {
  __shared__ int mutex;
  __shared__ int total;
  if (threadIdx.x == 0) {
    mutex = 0;
    total = 0;
  }
  __syncthreads();
  if (threadIdx.x % 32 == 0) {
    while (atomicCAS_block(&mutex, 0, 1) != 0) {
    }
    total = total + in[blockIdx.x * blockDim.x + threadIdx.x]; // expect-race(a): intra-block
    atomicExch_block(&mutex, 0);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = total;
}

int main() {
  const int blocks = 8, threads = 256;
  int *in, *out;
  cudaMalloc(&in, blocks * threads * sizeof(int));
  cudaMalloc(&out, blocks * sizeof(int));
  cudaMemset(in, 0, blocks * threads * sizeof(int));
  tally<<<blocks, threads>>>(in, out);
  int first;
  cudaMemcpy(&first, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("block 0 total %d\n", first);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
