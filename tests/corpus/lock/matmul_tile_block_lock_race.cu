// category: lock
// needs: sync-semantics
// source: ScoR matrix multiplication (per-tile locks)
// Split-K matrix multiplication: the blocks along z compute partial
// products of the same output tile and add them in under the tile's lock.
// The lock uses block scope, but the contending blocks are different blocks.
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 16

__global__ void matMulSplitK(const float *A, const float *B, float *C,
                             int *locks, int n, int kChunk) {
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  int k0 = blockIdx.z * kChunk;
  float acc = 0.0f;
  for (int k = k0; k < k0 + kChunk; ++k)
    acc += A[row * n + k] * B[k * n + col];
  int tile = blockIdx.y * gridDim.x + blockIdx.x;
  if (tx == 0 && ty == 0) {
    while (atomicCAS_block(&locks[tile], 0, 1) != 0) {
    }
    __threadfence_block();
  }
  __syncthreads();
  C[row * n + col] += acc; // expect-race(a): scoped
  __threadfence_block();
  __syncthreads();
  if (tx == 0 && ty == 0)
    atomicExch_block(&locks[tile], 0);
}

int main() {
  const int n = 256, splits = 4;
  size_t bytes = n * n * sizeof(float);
  float *A, *B, *C;
  int *locks;
  cudaMalloc(&A, bytes);
  cudaMalloc(&B, bytes);
  cudaMalloc(&C, bytes);
  cudaMalloc(&locks, (n / TILE) * (n / TILE) * sizeof(int));
  cudaMemset(A, 0, bytes);
  cudaMemset(B, 0, bytes);
  cudaMemset(C, 0, bytes);
  cudaMemset(locks, 0, (n / TILE) * (n / TILE) * sizeof(int));
  dim3 grid(n / TILE, n / TILE, splits);
  matMulSplitK<<<grid, dim3(TILE, TILE)>>>(A, B, C, locks, n, n / splits);
  cudaDeviceSynchronize();
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
  cudaFree(locks);
  printf("done\n");
  return 0;
}
