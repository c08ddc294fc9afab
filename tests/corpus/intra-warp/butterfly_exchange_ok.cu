// category: intra-warp
// expect: race-free
// source: warp butterfly reductions through shared memory (xor partners)
// Each step reads the partner lane `t ^ m`, which is in the same warp for
// m < 32; a __syncwarp() separates every write from the partner's read and
// every read from the partner's next write. Exact only if `t ^ m` is
// modelled as the bit operation it is.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void butterflySum(const int *in, int *out) {
  __shared__ int buf[256];
  int t = threadIdx.x;
  int v = in[blockIdx.x * 256 + t];
  buf[t] = v;
  __syncwarp();
  v += buf[t ^ 1];
  __syncwarp();
  buf[t] = v;
  __syncwarp();
  v += buf[t ^ 2];
  out[blockIdx.x * 256 + t] = v;
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 2 * 256 * sizeof(int));
  cudaMalloc(&out, 2 * 256 * sizeof(int));
  cudaMemset(in, 0, 2 * 256 * sizeof(int));
  butterflySum<<<2, 256>>>(in, out);
  int first;
  cudaMemcpy(&first, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("out[0] = %d\n", first);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
