// category: host-loop-bound
// Shifts a window left in place by a distance from a host loop that counts
// down from the window's length in steps of 1024. Only the first launch
// shifts by the whole window; the later ones shift by less than the number
// of threads, so thread i reads a[i + dist] while thread i + dist writes it.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void shiftLeft(float *a, int dist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = a[i + dist]; // expect-race(a): inter-block
}

int main() {
  const int n = 4096;
  float *a;
  cudaMalloc(&a, 2 * n * sizeof(float));
  for (int dist = n; dist > 0; dist -= 1024)
    shiftLeft<<<n / 256, 256>>>(a, dist);
  cudaDeviceSynchronize();
  cudaFree(a);
  printf("done\n");
  return 0;
}
