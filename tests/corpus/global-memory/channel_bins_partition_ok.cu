// category: global-memory
// expect: race-free
// source: histogram benchmarks that privatize one partial histogram per
// block in global memory and decode each pixel's channels into a
// register array first
// Each block owns a partition of 1024 counters. A pixel's three byte
// channels are decoded by an unrolled loop into `bins` (registers), and
// channel c counts into 256 * c + bins[c]: below 768, inside the block's
// own partition, because a byte is below 256. After the barrier each
// block clears its own partition for the next frame.
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
  unsigned int *mine = partitions + blockIdx.x * 1024;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) {
    unsigned int bins[3];
    decodePixel<3>(pixels[i], bins);
#pragma unroll
    for (int c = 0; c < 3; ++c)
      atomicAdd(&mine[256 * c + bins[c]], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 1024; b += blockDim.x)
    mine[b] = 0;
}

int main() {
  const int count = 1 << 16, threads = 256, blocks = count / threads;
  uchar4 *pixels;
  unsigned int *partitions;
  cudaMalloc(&pixels, count * sizeof(uchar4));
  cudaMalloc(&partitions, blocks * 1024 * sizeof(unsigned int));
  cudaMemset(pixels, 0, count * sizeof(uchar4));
  cudaMemset(partitions, 0, blocks * 1024 * sizeof(unsigned int));
  partialHistograms<<<blocks, threads>>>(pixels, count, partitions);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(pixels);
  cudaFree(partitions);
  return 0;
}
