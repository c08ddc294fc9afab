// A kernel written the way `gpurace instrument` writes one, compiled by the
// nvcc test to check that the device runtime builds for a real GPU target.
#include "../DeviceRuntime.cuh"

__global__ void sample(int *a, int *counter, int n) {
  __shared__ int tile[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    (*__gpurace_rec_w(&(tile[threadIdx.x % 64]), 0)) = a[i];
    (__gpurace_sync(1, gpurace::rt::kOpBarrier, 0), __syncthreads());
    (*__gpurace_rec_rw(&(a[i]), 2)) += (*__gpurace_rec_r(&(tile[(threadIdx.x + 1) % 64]), 3));
    __gpurace_store(&(a[i]), 7, 4);
    atomicAdd(__gpurace_rec_a(&(counter[0]), 5, gpurace::rt::kScopeDevice), 1);
    (__gpurace_sync(6, gpurace::rt::kOpFence, gpurace::rt::kScopeDevice), __threadfence());
    __gpurace_syncwarp(7, 0xffffffffu);
  }
}
