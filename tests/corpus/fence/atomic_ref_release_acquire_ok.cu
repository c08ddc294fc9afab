// category: fence
// expect: race-free
// needs: sync-semantics
// source: libcu++ release/acquire (ScoR fences, across blocks)
// A device-scope cuda::atomic_ref publishes a value from block 0 to block 1
// with a release store and an acquire load: no separate fence is needed.
#include <cstdio>
#include <cuda/atomic>
#include <cuda_runtime.h>

__global__ void publish(int *data, int *flag, int *out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[0] = 7;
    ready.store(1, cuda::memory_order_release);
  } else if (blockIdx.x == 1) {
    while (ready.load(cuda::memory_order_acquire) == 0) {
    }
    out[0] = data[0];
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
