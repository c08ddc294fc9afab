// category: branch-ordering
// expect: race-free
// Both paths of the branch touch the shared array, but even lanes write even
// slots and odd lanes read odd slots, so the path order does not matter.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void splitPaths(const int *in, int *out) {
  __shared__ int slot[32];
  int lane = threadIdx.x;
  if (lane % 2 == 0)
    slot[lane] = in[lane];
  else
    out[lane] = slot[lane];
}

int main() {
  int host[32];
  for (int i = 0; i < 32; ++i)
    host[i] = i;
  int *in, *out;
  cudaMalloc(&in, sizeof(host));
  cudaMalloc(&out, sizeof(host));
  cudaMemcpy(in, host, sizeof(host), cudaMemcpyHostToDevice);
  splitPaths<<<1, 32>>>(in, out);
  cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost);
  printf("out[1] = %d\n", host[1]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
