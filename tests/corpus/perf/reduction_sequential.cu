// category: perf
// expect: race-free
// source: block reductions with sequential addressing
// Thread t adds element t + s into t while t < s: consecutive lanes,
// consecutive words, no bank conflict at any step. The load walks the
// input; the one store per block is a single lane.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kThreads = 256;

__global__ void sumSequential(const float *in, float *out) {
  __shared__ float partial[kThreads];
  unsigned tid = threadIdx.x;
  partial[tid] = in[blockIdx.x * blockDim.x + tid]; // expect-perf: banks 1, sectors 4/4
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s]; // expect-perf: banks 1
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = partial[0]; // expect-perf: banks 1, sectors 4/4
}

int main() {
  const int blocks = 1024;
  float *in, *out;
  cudaMalloc(&in, blocks * kThreads * sizeof(float));
  cudaMalloc(&out, blocks * sizeof(float));
  cudaMemset(in, 0, blocks * kThreads * sizeof(float));
  sumSequential<<<blocks, kThreads>>>(in, out);
  cudaDeviceSynchronize();
  printf("reduced %d blocks\n", blocks);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
