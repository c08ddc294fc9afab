// category: template
// expect: race-free
// A reduction templated on the block size, launched with two
// instantiations whose block dims match the template argument.
#include <cstdio>
#include <cuda_runtime.h>

template <int BLOCK>
__global__ void blockSum(const float *in, float *out, int n) {
  __shared__ float sdata[BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  sdata[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s /= 2) {
    if (t < s)
      sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = sdata[0];
}

int main() {
  const int n = 1 << 16;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, (n / 128) * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  blockSum<128><<<n / 128, 128>>>(in, out, n);
  blockSum<256><<<n / 256, 256>>>(in, out, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  printf("done\n");
  return 0;
}
