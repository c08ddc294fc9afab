// category: scoped-atomic
// needs: sync-semantics
// Branch-free compaction that adds the keep flag (0 or 1) to the counter
// and writes its slot whatever the flag: a thread that adds 0 gets the same
// old value as the next thread to add, and both write that slot.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void compactPositive(const int *in, int *out, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int keep = in[i] > 0;
    int slot = atomicAdd(count, keep);
    out[slot] = keep ? in[i] : 0; // expect-race(a): inter-block
  }
}

int main() {
  const int n = 1 << 16;
  int *in, *out, *count;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, (n + 1) * sizeof(int));
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
