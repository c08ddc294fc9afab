// category: thread-local
// A reference names the next element of global memory: thread i writes
// data[i + 1] through it while thread i + 1 reads that element.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void shiftRight(int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 1) {
    int &next = data[i + 1];
    next = data[i]; // expect-race(a): intra-warp
  }
}

int main() {
  const int n = 4096;
  int *data;
  cudaMalloc(&data, n * sizeof(int));
  cudaMemset(data, 0, n * sizeof(int));
  shiftRight<<<n / 256, 256>>>(data, n);
  cudaDeviceSynchronize();
  cudaFree(data);
  printf("done\n");
  return 0;
}
