// category: shared-memory
// A per-block shared histogram whose bins are cleared and then counted with
// no barrier in between: a thread's atomic increment can land on a bin
// another thread has not cleared yet (a plain store against an atomic).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void blockHistogram(const unsigned char *data, int n,
                               unsigned int *perBlock) {
  __shared__ unsigned int bins[256];
  int t = threadIdx.x;
  bins[t] = 0; // expect-race(a): intra-block
  int i = blockIdx.x * blockDim.x + t;
  if (i < n)
    atomicAdd(&bins[data[i]], 1u); // expect-race(a): intra-block
  __syncthreads();
  perBlock[blockIdx.x * 256 + t] = bins[t];
}

int main() {
  const int n = 1 << 16, blocks = n / 256;
  unsigned char *data;
  unsigned int *perBlock;
  cudaMalloc(&data, n);
  cudaMalloc(&perBlock, blocks * 256 * sizeof(unsigned int));
  cudaMemset(data, 7, n);
  blockHistogram<<<blocks, 256>>>(data, n, perBlock);
  cudaDeviceSynchronize();
  cudaFree(data);
  cudaFree(perBlock);
  printf("done\n");
  return 0;
}
