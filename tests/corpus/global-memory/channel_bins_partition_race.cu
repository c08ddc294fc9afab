// category: global-memory
// source: histogram benchmarks that privatize one partial histogram per
// block in global memory
// The partial histograms of channel_bins_partition_ok.cu with partitions
// of 512 counters: the third channel's bins (512 + bins[2], up to 767)
// fall in the next block's partition, which that block clears after its
// own barrier while this one still counts.
#include <cstdio>
#include <cuda_runtime.h>

template <int CHANNELS>
__device__ __forceinline__ void decodePixel(uchar4 pixel, unsigned int (&bins)[CHANNELS]) {
  unsigned char samples[4] = {pixel.x, pixel.y, pixel.z, pixel.w};
#pragma unroll
  for (int c = 0; c < CHANNELS; ++c)
    bins[c] = samples[c];
}

__global__ void partialHistograms(const uchar4 *pixels, int count, unsigned int *partitions) {
  unsigned int *mine = partitions + blockIdx.x * 512;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) {
    unsigned int bins[3];
    decodePixel<3>(pixels[i], bins);
#pragma unroll
    for (int c = 0; c < 3; ++c)
      atomicAdd(&mine[256 * c + bins[c]], 1u); // expect-race(a): inter-block
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 512; b += blockDim.x)
    mine[b] = 0; // expect-race(a): inter-block
}

int main() {
  const int count = 1 << 16, threads = 256, blocks = count / threads;
  uchar4 *pixels;
  unsigned int *partitions;
  cudaMalloc(&pixels, count * sizeof(uchar4));
  cudaMalloc(&partitions, (blocks + 1) * 512 * sizeof(unsigned int));
  cudaMemset(pixels, 0, count * sizeof(uchar4));
  cudaMemset(partitions, 0, (blocks + 1) * 512 * sizeof(unsigned int));
  partialHistograms<<<blocks, threads>>>(pixels, count, partitions);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(pixels);
  cudaFree(partitions);
  return 0;
}
