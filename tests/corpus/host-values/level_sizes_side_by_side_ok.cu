// category: host-values
// expect: race-free
// needs: host-facts
// source: image pyramids (optical flow, multigrid): per-level sizes kept in
// host arrays filled side by side
// The host halves the image level by level and keeps each level's width,
// height and row stride in three arrays, the stride rounded up to a
// multiple of 32 from the width. The kernels write row y of a level at
// y * stride, so rows stay apart only if every level's stride covers its
// width, which holds of each pair of elements stored together.
#include <cstdio>
#include <cuda_runtime.h>

static const int kRowAlign = 32;

inline int roundUpTo(int n, int m = kRowAlign) {
  int rest = n % m;
  return rest ? n + m - rest : n;
}

inline int blocksFor(int n, int per_block) { return (n + per_block - 1) / per_block; }

__global__ void halve(const float *fine, int fine_stride, float *coarse, int w, int h,
                      int stride) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  coarse[y * stride + x] = 0.5f * (fine[2 * y * fine_stride + 2 * x] +
                                   fine[(2 * y + 1) * fine_stride + 2 * x + 1]);
}

__global__ void smooth(float *level, int w, int h, int stride) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  level[y * stride + x] *= 0.25f;
}

void buildPyramid(const float *image, int width, int height, int levels, float **d_levels) {
  int *widths = new int[levels];
  int *heights = new int[levels];
  int *strides = new int[levels];
  int top = levels - 1;
  widths[top] = width;
  heights[top] = height;
  strides[top] = roundUpTo(width);
  cudaMalloc(&d_levels[top], strides[top] * height * sizeof(float));
  cudaMemcpy(d_levels[top], image, strides[top] * height * sizeof(float),
             cudaMemcpyHostToDevice);
  dim3 threads(32, 8);
  for (int level = top; level > 0; --level) {
    int nw = widths[level] / 2;
    int nh = heights[level] / 2;
    int ns = roundUpTo(nw);
    cudaMalloc(&d_levels[level - 1], ns * nh * sizeof(float));
    dim3 blocks(blocksFor(nw, threads.x), blocksFor(nh, threads.y));
    halve<<<blocks, threads>>>(d_levels[level], strides[level], d_levels[level - 1], nw, nh,
                               ns);
    widths[level - 1] = nw;
    heights[level - 1] = nh;
    strides[level - 1] = ns;
  }
  for (int level = 0; level < levels; ++level) {
    dim3 blocks(blocksFor(widths[level], threads.x), blocksFor(heights[level], threads.y));
    smooth<<<blocks, threads>>>(d_levels[level], widths[level], heights[level], strides[level]);
  }
  cudaDeviceSynchronize();
  delete[] widths;
  delete[] heights;
  delete[] strides;
}

int main() {
  const int width = 1920, height = 1080, levels = 4;
  float *image = new float[roundUpTo(width) * height]();
  float *d_levels[levels];
  buildPyramid(image, width, height, levels, d_levels);
  for (int i = 0; i < levels; ++i)
    cudaFree(d_levels[i]);
  delete[] image;
  printf("done\n");
  return 0;
}
