// category: shared-memory
// One dynamic shared allocation split into two arrays by pointer offsets.
// The second array starts half a block in instead of a full block in, so
// its first half overlaps the second half of the first array.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void complexMagnitude(const float *re, const float *im,
                                 float *mag) {
  extern __shared__ float smem[];
  float *sre = smem;
  float *sim = smem + blockDim.x / 2;
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  sre[t] = re[g]; // expect-race(a): intra-block
  sim[t] = im[g]; // expect-race(a): intra-block
  __syncthreads();
  mag[g] = sre[t] * sre[t] + sim[t] * sim[t];
}

int main() {
  const int threads = 256, blocks = 32, n = threads * blocks;
  float *re, *im, *mag;
  cudaMalloc(&re, n * sizeof(float));
  cudaMalloc(&im, n * sizeof(float));
  cudaMalloc(&mag, n * sizeof(float));
  cudaMemset(re, 0, n * sizeof(float));
  cudaMemset(im, 0, n * sizeof(float));
  size_t shared = 2 * threads * sizeof(float);
  complexMagnitude<<<blocks, threads, shared>>>(re, im, mag);
  cudaDeviceSynchronize();
  cudaFree(re);
  cudaFree(im);
  cudaFree(mag);
  printf("done\n");
  return 0;
}
