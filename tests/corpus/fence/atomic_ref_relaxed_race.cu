// category: fence
// needs: sync-semantics
// source: libcu++ memory orders (ScoR fences, across blocks)
// The flag is a device-scope atomic, but relaxed: it orders nothing, so the
// data written before it races with the read after it.
#include <cstdio>
#include <cuda/atomic>
#include <cuda_runtime.h>

__global__ void publish(int *data, int *flag, int *out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[0] = 7; // expect-race(a): inter-block
    ready.store(1, cuda::memory_order_relaxed);
  } else if (blockIdx.x == 1) {
    while (ready.load(cuda::memory_order_relaxed) == 0) {
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
  publish<<<2, 32>>>(data, flag, out);
  int result;
  cudaMemcpy(&result, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("received %d\n", result);
  cudaFree(data);
  cudaFree(flag);
  cudaFree(out);
  return 0;
}
