// category: fence
// expect: race-free
// needs: sync-semantics
// source: ScoR microbenchmarks (fences), BARRACUDA flag synchronization
// Block 0 publishes a value and raises a flag; block 1 waits for the flag
// and reads the value. Device-scope fences on both sides order the data
// accesses across blocks.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void handoff(int *data, int *flag, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[0] = 42;
    __threadfence();
    atomicExch(flag, 1);
  } else if (blockIdx.x == 1) {
    while (atomicAdd(flag, 0) == 0) {
    }
    __threadfence();
    out[0] = data[0];
  }
}

int main() {
  int *data, *flag, *out;
  cudaMalloc(&data, sizeof(int));
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  handoff<<<2, 32>>>(data, flag, out);
  int result;
  cudaMemcpy(&result, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("received %d\n", result);
  cudaFree(data);
  cudaFree(flag);
  cudaFree(out);
  return 0;
}
