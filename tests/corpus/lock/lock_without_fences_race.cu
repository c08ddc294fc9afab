// category: lock
// needs: sync-semantics
// source: ScoR microbenchmarks (lock/unlock, missing fence)
// The spin lock has no fences: acquiring it does not make the previous
// holder's update of the total visible.
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 128

__device__ void lock(int *mutex) {
  while (atomicCAS(mutex, 0, 1) != 0) {
  }
}

__device__ void unlock(int *mutex) {
  atomicExch(mutex, 0);
}

__global__ void sumWithLock(const float *in, float *total, int *mutexes,
                            int n) {
  __shared__ float sdata[THREADS];
  int t = threadIdx.x;
  int i = blockIdx.x * THREADS + t;
  sdata[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (t < s)
      sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t == 0) {
    lock(&mutexes[0]);
    *total += sdata[0]; // expect-race(a): inter-block
    unlock(&mutexes[0]);
  }
}

int main() {
  const int n = 1 << 18, blocks = n / THREADS;
  float *in, *total;
  int *mutexes;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&total, sizeof(float));
  cudaMalloc(&mutexes, blocks * sizeof(int));
  cudaMemset(in, 0, n * sizeof(float));
  cudaMemset(total, 0, sizeof(float));
  cudaMemset(mutexes, 0, blocks * sizeof(int));
  sumWithLock<<<blocks, THREADS>>>(in, total, mutexes, n);
  float sum;
  cudaMemcpy(&sum, total, sizeof(float), cudaMemcpyDeviceToHost);
  printf("sum = %f\n", sum);
  cudaFree(in);
  cudaFree(total);
  cudaFree(mutexes);
  return 0;
}
