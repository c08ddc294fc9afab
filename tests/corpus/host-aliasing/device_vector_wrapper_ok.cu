// category: host-aliasing
// expect: race-free
// A library-style wrapper takes thrust device vectors by reference and
// launches on their raw pointers. Each vector owns its buffer, and the
// caller passes two different vectors, so the shifted read of `in` never
// meets the write of `out`.
#include <cstdio>
#include <thrust/device_vector.h>

__global__ void shiftLeft(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    out[i] = in[i + 1];
}

void shiftVector(thrust::device_vector<float> &in, thrust::device_vector<float> &out) {
  int n = static_cast<int>(in.size());
  shiftLeft<<<(n + 255) / 256, 256>>>(thrust::raw_pointer_cast(in.data()),
                                      thrust::raw_pointer_cast(out.data()), n);
}

int main() {
  thrust::device_vector<float> samples(1 << 16, 1.0f), shifted(1 << 16);
  shiftVector(samples, shifted);
  cudaDeviceSynchronize();
  printf("%f\n", static_cast<float>(shifted[0]));
  return 0;
}
