// category: shared-memory
// In-place shift of a shared tile: each thread reads the slot one warp
// ahead and then overwrites its own slot. The owner of the slot it read may
// already have overwritten it (write-after-read, no barrier between).
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
    next = tile[t + 64]; // expect-race(a): intra-block
  tile[t] = next;        // expect-race(a): intra-block
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
