// category: host-aliasing
// source: libraries and samples that export a launch wrapper (a .cu file
// with `void launch(const float *in, float *out, int n)` and no main)
// The wrapper's buffers are taken as separate, but the kernel races within
// 'out' on its own: the grid is rounded up to whole blocks and the kernel
// wraps its index instead of guarding it, so threads past n write the
// first elements, which block 0 also writes.
#include <cuda_runtime.h>

__global__ void scatterHalves(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i % n] = in[i % n] * 0.5f; // expect-race(a): inter-block
}

void scatterHalvesOnDevice(const float *in, float *out, int n) {
  scatterHalves<<<(n + 127) / 128, 128>>>(in, out, n);
}
