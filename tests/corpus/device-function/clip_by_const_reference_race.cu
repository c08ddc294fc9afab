// category: device-function
// source: signal-processing kernels that compare each sample with its
// neighbours up to an order, clipping or wrapping the neighbour's index at
// the edges in small helpers that take their flags by const reference
// As clip_by_const_reference_ok.cu, but each thread marks the right-hand
// neighbour it compared against instead of itself: with `clip` on, every
// thread within `order` of the row end clamps to the last pixel, and they
// all write it (threads of one row of a 16-wide block, so of one warp).
// (main passes clip both ways: the race needs it on.)
#include <cstdio>
#include <cuda_runtime.h>

__device__ __forceinline__ void clampAbove(const bool &clip, const int &n, int &index) {
  if (index >= n)
    index = clip ? n - 1 : index - n;
}

__device__ __forceinline__ void clampBelow(const bool &clip, const int &n, int &index) {
  if (index < 0)
    index = clip ? 0 : index + n;
}

__global__ void localMaxima(int width, int height, int order, bool clip, const float *in,
                            bool *is_max) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  int at = y * width + x;
  float v = in[at];
  bool peak = true;
  for (int o = 1; o <= order; o++) {
    int right = x + o, left = x - o;
    clampAbove(clip, width, right);
    clampBelow(clip, width, left);
    peak &= v > in[y * width + right];
    peak &= v >= in[y * width + left];
  }
  int right = x + order;
  clampAbove(clip, width, right);
  is_max[y * width + right] = peak; // expect-race(R1): intra-warp
}

float runOrder(int width, int height, int order, const bool clip) {
  int n = width * height;
  float *d_in;
  bool *d_max;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_max, n * sizeof(bool));
  cudaMemset(d_in, 0, n * sizeof(float));
  dim3 threads(16, 16);
  dim3 blocks((width + 15) / 16, (height + 15) / 16);
  localMaxima<<<blocks, threads>>>(width, height, order, clip, d_in, d_max);
  bool first = false;
  cudaMemcpy(&first, d_max, sizeof(bool), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_max);
  return first ? 1.0f : 0.0f;
}

int main() {
  float found = 0.0f;
  for (int order = 1; order <= 8; order *= 2) {
    found += runOrder(640, 480, order, true);
    found += runOrder(640, 480, order, false);
  }
  printf("%f\n", found);
  return 0;
}
