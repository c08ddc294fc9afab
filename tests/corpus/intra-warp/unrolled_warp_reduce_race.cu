// category: intra-warp
// source: CUDA samples reduction (reduce4), warp-synchronous tail
// The last steps of the reduction run in one warp without __syncwarp,
// relying on lock-step execution that independent thread scheduling no
// longer guarantees: lane t reads sdata[t + 8] while lane t + 8 updates it.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void reduceTail(const float *in, float *out) {
  __shared__ float sdata[64];
  int t = threadIdx.x;
  sdata[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  if (t < 32)
    sdata[t] += sdata[t + 32];
  __syncthreads();
  if (t < 16)
    sdata[t] += sdata[t + 16]; // expect-race(a): intra-warp
  if (t < 8)
    sdata[t] += sdata[t + 8]; // expect-race(a): intra-warp
  __syncthreads();
  if (t == 0)
    out[blockIdx.x] = sdata[0] + sdata[1] + sdata[2] + sdata[3] + sdata[4] +
                      sdata[5] + sdata[6] + sdata[7];
}

int main() {
  const int blocks = 100;
  float *in, *out;
  cudaMalloc(&in, blocks * 64 * sizeof(float));
  cudaMalloc(&out, blocks * sizeof(float));
  cudaMemset(in, 0, blocks * 64 * sizeof(float));
  reduceTail<<<blocks, 64>>>(in, out);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  printf("done\n");
  return 0;
}
