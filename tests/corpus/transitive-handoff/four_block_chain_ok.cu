// category: transitive-handoff
// expect: race-free
// needs: sync-semantics
// source: wavefront pipelines where each block releases the next
// A chain of four blocks, each waiting for its predecessor's flag and
// raising its own: block 0's write reaches block 3 through two relays.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void chain(float *partial, int *stage_done, float *total) {
  if (threadIdx.x != 0)
    return;
  int b = blockIdx.x;
  if (b == 0) {
    partial[0] = 1.5f;
    __threadfence();
    atomicExch(&stage_done[0], 1);
  } else if (b == 1 || b == 2) {
    while (atomicAdd(&stage_done[b - 1], 0) == 0) {
    }
    __threadfence();
    atomicExch(&stage_done[b], 1);
  } else if (b == 3) {
    while (atomicAdd(&stage_done[2], 0) == 0) {
    }
    __threadfence();
    total[0] = partial[0] * 2.0f;
  }
}

int main() {
  float *partial, *total;
  int *stage_done;
  cudaMalloc(&partial, sizeof(float));
  cudaMalloc(&total, sizeof(float));
  cudaMalloc(&stage_done, 3 * sizeof(int));
  cudaMemset(stage_done, 0, 3 * sizeof(int));
  chain<<<4, 32>>>(partial, stage_done, total);
  float host = 0;
  cudaMemcpy(&host, total, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", host);
  cudaFree(partial);
  cudaFree(total);
  cudaFree(stage_done);
  return 0;
}
