// category: branch-ordering
// source: BARRACUDA branch-ordering races
// Even lanes write a slot on the then-path and odd lanes read the same slot
// on the else-path. The order in which a warp runs the two paths is not
// defined, so the read may see the old or the new value.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void pairUp(const int *in, int *out) {
  __shared__ int slot[16];
  int lane = threadIdx.x;
  if (lane % 2 == 0)
    slot[lane / 2] = in[lane]; // expect-race(a): intra-warp
  else
    out[lane / 2] = slot[lane / 2]; // expect-race(a): intra-warp
}

int main() {
  int host[32];
  for (int i = 0; i < 32; ++i)
    host[i] = i;
  int *in, *out;
  cudaMalloc(&in, sizeof(host));
  cudaMalloc(&out, 16 * sizeof(int));
  cudaMemcpy(in, host, sizeof(host), cudaMemcpyHostToDevice);
  pairUp<<<1, 32>>>(in, out);
  cudaMemcpy(host, out, 16 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("out[0] = %d\n", host[0]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
