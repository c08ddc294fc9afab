// category: shared-memory
// Every thread whose key matches stores its own index into one shared slot:
// the "winner" is whichever store lands last (write-write).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void findMatch(const int *keys, int wanted, int *position) {
  __shared__ int winner;
  int t = threadIdx.x;
  if (t == 0)
    winner = -1;
  __syncthreads();
  if (keys[blockIdx.x * blockDim.x + t] == wanted)
    winner = t; // expect-race(a): intra-block
  __syncthreads();
  if (t == 0)
    position[blockIdx.x] = winner;
}

int main() {
  const int blocks = 16, threads = 256, n = blocks * threads;
  int *host = new int[n];
  for (int i = 0; i < n; ++i)
    host[i] = i % 7;
  int *keys, *position;
  cudaMalloc(&keys, n * sizeof(int));
  cudaMalloc(&position, blocks * sizeof(int));
  cudaMemcpy(keys, host, n * sizeof(int), cudaMemcpyHostToDevice);
  findMatch<<<blocks, threads>>>(keys, 3, position);
  int found[blocks];
  cudaMemcpy(found, position, sizeof(found), cudaMemcpyDeviceToHost);
  printf("block 0 matched at %d\n", found[0]);
  cudaFree(keys);
  cudaFree(position);
  delete[] host;
  return 0;
}
