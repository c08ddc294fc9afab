// category: global-memory
// Shifts a warp-sized array left by one in place: thread t reads A[t + 1]
// while thread t + 1 overwrites it in the same statement.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void shiftLeft(int *A, int n) {
  int t = threadIdx.x;
  if (t < n - 1)
    A[t] = A[t + 1]; // expect-race(a): intra-warp
}

int main() {
  const int n = 32;
  int host[n];
  for (int i = 0; i < n; ++i)
    host[i] = i;
  int *A;
  cudaMalloc(&A, sizeof(host));
  cudaMemcpy(A, host, sizeof(host), cudaMemcpyHostToDevice);
  shiftLeft<<<1, 32>>>(A, n);
  cudaMemcpy(host, A, sizeof(host), cudaMemcpyDeviceToHost);
  printf("A[0] = %d\n", host[0]);
  cudaFree(A);
  return 0;
}
