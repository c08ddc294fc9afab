// category: intra-warp
// source: warp butterfly reductions through shared memory (xor partners)
// The second step overwrites buf[t] while the partner lane `t ^ 1` may
// still be reading it for the first step: no __syncwarp() between the read
// and the next write.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void butterflySumEarlyWrite(const int *in, int *out) {
  __shared__ int buf[256];
  int t = threadIdx.x;
  int v = in[blockIdx.x * 256 + t];
  buf[t] = v;
  __syncwarp();
  v += buf[t ^ 1]; // expect-race(a): intra-warp
  buf[t] = v; // expect-race(a): intra-warp
  __syncwarp();
  v += buf[t ^ 2];
  out[blockIdx.x * 256 + t] = v;
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 2 * 256 * sizeof(int));
  cudaMalloc(&out, 2 * 256 * sizeof(int));
  cudaMemset(in, 0, 2 * 256 * sizeof(int));
  butterflySumEarlyWrite<<<2, 256>>>(in, out);
  int first;
  cudaMemcpy(&first, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("out[0] = %d\n", first);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
