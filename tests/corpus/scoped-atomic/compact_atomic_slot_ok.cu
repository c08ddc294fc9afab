// category: scoped-atomic
// expect: race-free
// needs: sync-semantics
// source: stream compaction with a global append counter
// Each thread that keeps its element takes a slot from a device-wide
// counter and writes there: atomicAdd by 1 hands every thread a different
// old value, so no two threads write the same slot.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void compactPositive(const int *in, int *out, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) {
    int slot = atomicAdd(count, 1);
    out[slot] = in[i];
  }
}

int main() {
  const int n = 1 << 16;
  int *in, *out, *count;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMalloc(&count, sizeof(int));
  cudaMemset(in, 0, n * sizeof(int));
  cudaMemset(count, 0, sizeof(int));
  compactPositive<<<n / 256, 256>>>(in, out, count, n);
  int kept = 0;
  cudaMemcpy(&kept, count, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d kept\n", kept);
  cudaFree(in);
  cudaFree(out);
  cudaFree(count);
  return 0;
}
