// category: same-value-write
// source: "where is the match?" searches that record the position
// Every thread that finds the key stores its own index in one word: the
// threads store different values and which one survives depends on the
// schedule. A race, unlike raising a flag to 1.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void findKey(const int *keys, int *position, int key, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && keys[i] == key)
    *position = i; // expect-race(a): inter-block
}

int main() {
  const int n = 1 << 14;
  int *keys, *position;
  cudaMalloc(&keys, n * sizeof(int));
  cudaMalloc(&position, sizeof(int));
  cudaMemset(keys, 0, n * sizeof(int));
  findKey<<<n / 256, 256>>>(keys, position, 0, n);
  int host = -1;
  cudaMemcpy(&host, position, sizeof(int), cudaMemcpyDeviceToHost);
  printf("position: %d\n", host);
  cudaFree(keys);
  cudaFree(position);
  return 0;
}
