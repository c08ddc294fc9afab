// category: fence
// needs: sync-semantics
// source: BARRACUDA flag synchronization without fences
// The flag handshake between two blocks has no fences: the consumer may see
// the flag before the data.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void handoff(int *data, int *flag, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[0] = 42; // expect-race(a): inter-block
    atomicExch(flag, 1);
  } else if (blockIdx.x == 1) {
    while (atomicAdd(flag, 0) == 0) {
    }
    out[0] = data[0]; // expect-race(a): inter-block
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
