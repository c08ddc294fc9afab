// category: barrier-loop
// source: Hillis-Steele inclusive scan, in-place variant
// The in-place scan reads temp[t - offset] in the same round in which
// thread t - offset updates it; the barrier only separates rounds.
#include <cstdio>
#include <cuda_runtime.h>

#define N 512

__global__ void inclusiveScan(const int *in, int *out) {
  __shared__ int temp[N];
  int t = threadIdx.x;
  temp[t] = in[t];
  __syncthreads();
  for (int offset = 1; offset < N; offset *= 2) {
    if (t >= offset)
      temp[t] += temp[t - offset]; // expect-race(a): intra-block
    __syncthreads();
  }
  out[t] = temp[t];
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
