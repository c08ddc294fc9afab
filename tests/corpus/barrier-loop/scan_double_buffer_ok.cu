// category: barrier-loop
// expect: race-free
// source: GPU Gems 3, ch. 39 (naive double-buffered scan)
// Each round reads one half of temp and writes the other, then swaps.
#include <cstdio>
#include <cuda_runtime.h>

#define N 512

__global__ void inclusiveScan(const int *in, int *out) {
  __shared__ int temp[2 * N];
  int t = threadIdx.x;
  int pout = 0, pin = 1;
  temp[pout * N + t] = in[t];
  __syncthreads();
  for (int offset = 1; offset < N; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (t >= offset)
      temp[pout * N + t] = temp[pin * N + t] + temp[pin * N + t - offset];
    else
      temp[pout * N + t] = temp[pin * N + t];
    __syncthreads();
  }
  out[t] = temp[pout * N + t];
}

int main() {
  int host[N];
  for (int i = 0; i < N; ++i)
    host[i] = 1;
  int *in, *out;
  cudaMalloc(&in, sizeof(host));
  cudaMalloc(&out, sizeof(host));
  cudaMemcpy(in, host, sizeof(host), cudaMemcpyHostToDevice);
  inclusiveScan<<<1, N>>>(in, out);
  cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost);
  printf("sum of %d ones: %d\n", N, host[N - 1]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
