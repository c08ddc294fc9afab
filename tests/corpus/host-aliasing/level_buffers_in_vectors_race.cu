// category: host-aliasing
// source: multi-level scans and reductions whose driver allocates one
// output and one block-sum buffer per level in a loop, keeps them in
// std::vectors of pointers, and feeds each level's block sums to the next.
// Each buffer comes from its own cudaMalloc, so the elements of the two
// vectors are separate buffers, but the second loop passes the previous
// level's sums as the block-sum output too (sums[l - 1] for sums[l]): a
// launch writes its block sums into the buffer it reads its input from.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void blockSums(const float *in, float *out, float *sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f; // expect-race(a): inter-block
  if (i < n)
    out[i] = 2.0f * v;
  if (threadIdx.x == 0)
    sums[blockIdx.x] = v; // expect-race(a): inter-block
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s LEVELS\n", argv[0]);
    return 1;
  }
  int levels = atoi(argv[1]);
  if (levels < 1 || levels > 3)
    return 1;
  int n = 1 << 24;
  float *input;
  cudaMalloc(&input, n * sizeof(float));
  std::vector<float *> outs(levels);
  std::vector<float *> sums(levels);
  for (int l = 0; l < levels; ++l) {
    int size = n >> (8 * l);
    float *out;
    cudaMalloc(&out, size * sizeof(float));
    outs[l] = out;
    float *sum;
    cudaMalloc(&sum, (size / BLOCK) * sizeof(float));
    sums[l] = sum;
  }
  blockSums<<<n / BLOCK, BLOCK>>>(input, outs[0], sums[0], n);
  for (int l = 1; l < levels; ++l) {
    int size = n >> (8 * l);
    blockSums<<<size / BLOCK, BLOCK>>>(sums[l - 1], outs[l], sums[l - 1], size);
  }
  cudaDeviceSynchronize();
  for (int l = 0; l < levels; ++l) {
    cudaFree(outs[l]);
    cudaFree(sums[l]);
  }
  cudaFree(input);
  return 0;
}
