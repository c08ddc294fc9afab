// category: perf
// expect: race-free
// source: the first block reductions of GPU optimization guides (interleaved addressing)
// Thread t adds element 2*s*t + s into 2*s*t. With 256 threads, step s = 4
// has lanes 0..31 at words 8t: four banks, eight words each. Steps 8 and 16
// keep eight words per bank with fewer lanes active: the worst is 8-way,
// paid in every iteration of the loop. The load and store walk the input.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kThreads = 256;

__global__ void sumInterleaved(const float *in, float *out) {
  __shared__ float partial[kThreads];
  unsigned tid = threadIdx.x;
  partial[tid] = in[blockIdx.x * blockDim.x + tid]; // expect-perf: banks 1, sectors 4/4
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x)
      partial[index] += partial[index + s]; // expect-perf: banks 8
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = partial[0];
}

int main() {
  const int blocks = 1024;
  float *in, *out;
  cudaMalloc(&in, blocks * kThreads * sizeof(float));
  cudaMalloc(&out, blocks * sizeof(float));
  cudaMemset(in, 0, blocks * kThreads * sizeof(float));
  sumInterleaved<<<blocks, kThreads>>>(in, out);
  cudaDeviceSynchronize();
  printf("reduced %d blocks\n", blocks);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
