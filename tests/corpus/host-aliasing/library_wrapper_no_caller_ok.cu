// category: host-aliasing
// expect: race-free
// source: libraries and samples that export a launch wrapper (a .cu file
// with `void launch(const float *in, float *out, int n)` and no main)
// Nobody in this file calls the wrapper, so where 'in' and 'out' point is
// not visible: they are taken as the separate buffers their names and
// constness say, as a kernel-only analysis takes them, and the result
// states that assumption. The grid is rounded up from n; the kernel's
// guard keeps every thread inside.
#include <cuda_runtime.h>

__global__ void rotateLeft(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[(i + 1) % n];
}

void rotateLeftOnDevice(const float *in, float *out, int n, cudaStream_t stream) {
  const int threads = 256;
  rotateLeft<<<(n + threads - 1) / threads, threads, 0, stream>>>(in, out, n);
}
