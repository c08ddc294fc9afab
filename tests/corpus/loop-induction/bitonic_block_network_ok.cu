// category: loop-induction
// source: sorting kernels that sort a chunk in one block with a bitonic
// network whose stages run up to the block's size (a fallback sort that
// a recursive quicksort launches for small chunks)
// expect: race-free
// needs: host-facts
// In each step a thread reads its own key and its partner's, `tid ^ j`,
// and after a barrier the thread that must swap writes its key into the
// partner's slot. Two threads of one step write one slot only if they flip
// the same bit of the same index, that is, if they are one thread; the
// barrier at the end of the step orders the writes before the next reads.
// The stages run to blockDim.x, which the host reads from the command line.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void sortChunk(unsigned *keys, unsigned count) {
  __shared__ unsigned chunk[1024];
  chunk[threadIdx.x] = threadIdx.x < count ? keys[threadIdx.x] : 0xffffffffu;
  __syncthreads();
  for (unsigned size = 2; size <= blockDim.x; size *= 2)
    for (unsigned stride = size / 2; stride > 0; stride /= 2) {
      unsigned partner = threadIdx.x ^ stride;
      unsigned mine = chunk[threadIdx.x];
      unsigned theirs = chunk[partner];
      __syncthreads();
      bool up = (threadIdx.x & size) == size * (partner < threadIdx.x);
      if (up && mine > theirs)
        chunk[partner] = mine;
      else if (!up && mine < theirs)
        chunk[partner] = mine;
      __syncthreads();
    }
  if (threadIdx.x < count)
    keys[threadIdx.x] = chunk[threadIdx.x];
}

int main(int argc, char **argv) {
  unsigned threads = argc > 1 ? (unsigned)atoi(argv[1]) : 256;
  if (threads == 0 || threads > 1024 || (threads & (threads - 1)) != 0) {
    fprintf(stderr, "the block size must be a power of two up to 1024\n");
    return 1;
  }
  unsigned *keys;
  cudaMalloc(&keys, threads * sizeof(unsigned));
  cudaMemset(keys, 0, threads * sizeof(unsigned));
  sortChunk<<<1, threads>>>(keys, threads);
  cudaDeviceSynchronize();
  cudaFree(keys);
  return 0;
}
