// category: shared-memory
// expect: race-free
// rotateTile with a barrier between the read of the neighbour's slot and the
// overwrite of the own slot.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void rotateTile(float *data) {
  __shared__ float tile[256];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  tile[t] = data[g];
  __syncthreads();
  float next = 0.0f;
  if (t + 64 < blockDim.x)
    next = tile[t + 64];
  __syncthreads();
  tile[t] = next;
  __syncthreads();
  data[g] = tile[t];
}

int main() {
  const int blocks = 4, threads = 256, n = blocks * threads;
  float *host = new float[n];
  for (int i = 0; i < n; ++i)
    host[i] = static_cast<float>(i);
  float *data;
  cudaMalloc(&data, n * sizeof(float));
  cudaMemcpy(data, host, n * sizeof(float), cudaMemcpyHostToDevice);
  rotateTile<<<blocks, threads>>>(data);
  cudaMemcpy(host, data, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("data[0] = %f\n", host[0]);
  cudaFree(data);
  delete[] host;
  return 0;
}
