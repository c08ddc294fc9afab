// category: scoped-atomic
// expect: race-free
// needs: sync-semantics
// source: scatter/reduce kernels that write their atomics with nvcc's
// __nv_atomic_* builtins (CUDA 12.8 on), a compare-and-swap loop for
// floating-point maxima and a fetch-add for counts
// Each source element is scattered into out[index[i]] by a device-scope
// compare-and-swap loop on the float's bits; the count of each target is
// a device-scope fetch-add. Every access to the targets is atomic with a
// scope that spans the grid, so the collisions the indices make are not
// races.
#include <cstdio>
#include <cuda_runtime.h>

__device__ void atomicMaxFloat(float *address, float value) {
  unsigned *bits = reinterpret_cast<unsigned *>(address);
  unsigned seen = __nv_atomic_load_n(bits, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  while (__uint_as_float(seen) < value) {
    unsigned expected = seen;
    if (__nv_atomic_compare_exchange_n(bits, &expected, __float_as_uint(value), false,
                                       __NV_ATOMIC_RELAXED, __NV_ATOMIC_RELAXED,
                                       __NV_THREAD_SCOPE_DEVICE))
      break;
    seen = expected;
  }
}

__global__ void scatterMax(const float *src, const int *index, int n, float *out,
                           int *hits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int target = index[i];
  atomicMaxFloat(&out[target], src[i]);
  __nv_atomic_fetch_add(&hits[target], 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
}

int main() {
  const int n = 1 << 14, targets = 128;
  float *src, *out;
  int *index, *hits;
  cudaMalloc(&src, n * sizeof(float));
  cudaMalloc(&index, n * sizeof(int));
  cudaMalloc(&out, targets * sizeof(float));
  cudaMalloc(&hits, targets * sizeof(int));
  cudaMemset(src, 0, n * sizeof(float));
  cudaMemset(index, 0, n * sizeof(int));
  cudaMemset(out, 0, targets * sizeof(float));
  cudaMemset(hits, 0, targets * sizeof(int));
  scatterMax<<<n / 256, 256>>>(src, index, n, out, hits);
  int host[targets];
  cudaMemcpy(host, hits, sizeof(host), cudaMemcpyDeviceToHost);
  printf("hits 0: %d\n", host[0]);
  cudaFree(src);
  cudaFree(index);
  cudaFree(out);
  cudaFree(hits);
  return 0;
}
