// category: barrier-loop
// Tiled matrix multiplication without the barrier at the end of each tile:
// the loads of tile m+1 overwrite As and Bs while slower threads still read
// tile m.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE 16

__global__ void matMul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int m = 0; m < n / TILE; ++m) {
    As[ty][tx] = A[row * n + m * TILE + tx]; // expect-race(a): intra-warp
    Bs[ty][tx] = B[(m * TILE + ty) * n + col]; // expect-race(b): intra-block
    __syncthreads();
    for (int k = 0; k < TILE; ++k) {
      float a = As[ty][k]; // expect-race(a): intra-warp
      float b = Bs[k][tx]; // expect-race(b): intra-block
      acc += a * b;
    }
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}

int main() {
  const int n = 512;
  size_t bytes = n * n * sizeof(float);
  float *A, *B, *C;
  cudaMalloc(&A, bytes);
  cudaMalloc(&B, bytes);
  cudaMalloc(&C, bytes);
  cudaMemset(A, 0, bytes);
  cudaMemset(B, 0, bytes);
  dim3 block(TILE, TILE);
  dim3 grid(n / TILE, n / TILE);
  matMul<<<grid, block>>>(A, B, C, n);
  cudaDeviceSynchronize();
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
  printf("multiplied %dx%d\n", n, n);
  return 0;
}
