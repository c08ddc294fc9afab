// category: device-function
// source: filter tables of device function pointers (image-processing samples)
// One entry of the table smooths towards the right neighbour in place: when
// the table selects it, thread i reads data[i + 1] while thread i + 1
// overwrites it. The race is in the callee reached through the pointer.
#include <cstdio>
#include <cuda_runtime.h>

typedef void (*rowOp)(float *, int);

__device__ void halveInPlace(float *data, int i) { data[i] = data[i] * 0.5f; }
__device__ void smoothRight(float *data, int i) {
  data[i] = 0.5f * (data[i] + data[i + 1]); // expect-race(a): intra-warp
}

__device__ rowOp rowOps[2] = {halveInPlace, smoothRight};

__global__ void applyRowOp(float *data, int which) {
  int i = threadIdx.x;
  if (i < 31)
    rowOps[which](data, i);
}

int main() {
  float *data;
  cudaMalloc(&data, 32 * sizeof(float));
  cudaMemset(data, 0, 32 * sizeof(float));
  applyRowOp<<<1, 32>>>(data, 1);
  float first;
  cudaMemcpy(&first, data, sizeof(float), cudaMemcpyDeviceToHost);
  printf("data[0] = %f\n", first);
  cudaFree(data);
  return 0;
}
