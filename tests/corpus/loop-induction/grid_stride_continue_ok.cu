// category: loop-induction
// expect: race-free
// source: sparse updates that skip empty entries in a grid-stride loop
// The index is stepped in the for header, so a `continue` that skips an
// entry still steps it; the loop also keeps a count of the entries it
// visited, stepped in the body after the `continue` (not an induction
// variable: some iterations skip it).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void clampNonZero(float *v, int *visited, int n) {
  int seen = 0;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i < n; i += gridDim.x * blockDim.x) {
    if (v[i] == 0.0f)
      continue;
    v[i] = v[i] > 1.0f ? 1.0f : v[i];
    seen += 1;
  }
  visited[blockIdx.x * blockDim.x + threadIdx.x] = seen;
}

int main() {
  const int n = 1 << 18, blocks = 32, threads = 256;
  float *v;
  int *visited;
  cudaMalloc(&v, n * sizeof(float));
  cudaMalloc(&visited, blocks * threads * sizeof(int));
  cudaMemset(v, 0, n * sizeof(float));
  clampNonZero<<<blocks, threads>>>(v, visited, n);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(v);
  cudaFree(visited);
  return 0;
}
