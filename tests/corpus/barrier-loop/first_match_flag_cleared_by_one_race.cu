// category: barrier-loop
// source: the categorical sampling kernel of first_match_flag_scan_ok.cu,
// with the shared `found` flag cleared by thread 0 alone and no barrier
// before the chunk loop reads it: the other threads may read the flag
// before the clear, still true from the previous distribution, and skip
// the chunk loop that thread 0 enters: thread 0, which reads its own clear,
// then waits at the loop's barriers alone.
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 256

__global__ void firstMatch(const float *probs, const float *samples, int *picked,
                           int distributions, int categories) {
  __shared__ bool found;
  __shared__ int foundAt;
  __shared__ float scan[THREADS];
  for (int d = blockIdx.x; d < distributions; d += gridDim.x) {
    if (threadIdx.x == 0) {
      foundAt = 0;
      scan[0] = samples[d];
    }
    __syncthreads();
    float sample = scan[0];
    __syncthreads();
    int chunks = (categories + (int)blockDim.x - 1) / blockDim.x;
    if (threadIdx.x == 0)
      found = false; // expect-race(a): intra-warp
    for (int chunk = 0; chunk < chunks && !found; ++chunk) { // expect-race(a): intra-warp
      int cat = chunk * blockDim.x + threadIdx.x;
      scan[threadIdx.x] = cat < categories ? probs[d * categories + cat] : 0.0f;
      __syncthreads(); // expect-divergence: barrier-divergence
      for (int offset = 1; offset < blockDim.x; offset *= 2) {
        float sum = 0.0f;
        if (threadIdx.x >= offset)
          sum = scan[threadIdx.x - offset] + scan[threadIdx.x];
        __syncthreads(); // expect-divergence: barrier-divergence
        if (threadIdx.x >= offset)
          scan[threadIdx.x] = sum;
        __syncthreads(); // expect-divergence: barrier-divergence
      }
      if (cat < categories && scan[threadIdx.x] > sample) {
        atomicMax(&foundAt, cat);
        found = true;
      }
      __syncthreads(); // expect-divergence: barrier-divergence
    }
    __syncthreads();
    if (threadIdx.x == 0)
      picked[d] = found ? foundAt : categories - 1;
  }
}

int main() {
  const int distributions = 1000, categories = 769;
  float *probs, *samples;
  int *picked;
  cudaMalloc(&probs, distributions * categories * sizeof(float));
  cudaMalloc(&samples, distributions * sizeof(float));
  cudaMalloc(&picked, distributions * sizeof(int));
  cudaMemset(probs, 0, distributions * categories * sizeof(float));
  cudaMemset(samples, 0, distributions * sizeof(float));
  firstMatch<<<64, THREADS>>>(probs, samples, picked, distributions, categories);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(probs);
  cudaFree(samples);
  cudaFree(picked);
  return 0;
}
