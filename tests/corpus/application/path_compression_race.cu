// category: application
// source: Indigo pathCompression (HGRD Table 3)
// Union-find path compression: every vertex repeatedly points itself at
// its grandparent. A vertex's parent entry is read through other vertices'
// chains while its own thread rewrites it.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

__global__ void compressPaths(int *parent, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n)
    return;
  for (int step = 0; step < 8; ++step)
    parent[v] = parent[parent[v]]; // expect-race(a): inter-block
}

int main() {
  const int n = 1 << 16;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i)
    host[i] = i == 0 ? 0 : rand() % i;
  int *parent;
  cudaMalloc(&parent, n * sizeof(int));
  cudaMemcpy(parent, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  compressPaths<<<(n + 255) / 256, 256>>>(parent, n);
  cudaMemcpy(host.data(), parent, n * sizeof(int), cudaMemcpyDeviceToHost);
  printf("parent[n-1] = %d\n", host[n - 1]);
  cudaFree(parent);
  return 0;
}
