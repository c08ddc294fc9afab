// category: volatile
// source: pre-Volta reductions that finish the last warp without
// synchronization, relying on lock-step lanes and a volatile pointer
// One folding step of the last warp: lane t adds v[t + 16] into v[t]. With
// independent thread scheduling the lanes of a warp do not run in
// lock-step: lane 16 may write its sum before lane 0 reads v[16].
// volatile only keeps the values in shared memory; __syncwarp() between
// the steps is what orders them (--assume-warp-lockstep reads the code as
// it was written for).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void foldHalves(const float *in, float *out) {
  __shared__ float partial[48];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * 48 + t];
  __syncthreads();
  if (t < 32) {
    volatile float *v = partial;
    v[t] += v[t + 16]; // expect-race(a): intra-warp
  }
  if (t == 0)
    out[blockIdx.x] = partial[0];
}

int main() {
  const int blocks = 128;
  float *in, *out;
  cudaMalloc(&in, blocks * 48 * sizeof(float));
  cudaMalloc(&out, blocks * sizeof(float));
  cudaMemset(in, 0, blocks * 48 * sizeof(float));
  foldHalves<<<blocks, 48>>>(in, out);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(in);
  cudaFree(out);
  return 0;
}
