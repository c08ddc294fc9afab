// category: host-aliasing
// A library-style wrapper takes thrust device vectors by reference and
// launches on their raw pointers. The caller shifts one vector in place:
// thread i writes element i while thread i + 1 reads it, in another block
// at each block's edge.
#include <cstdio>
#include <thrust/device_vector.h>

__global__ void shiftLeft(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    out[i] = in[i + 1]; // expect-race(a): inter-block
}

void shiftVector(thrust::device_vector<float> &in, thrust::device_vector<float> &out) {
  int n = static_cast<int>(in.size());
  shiftLeft<<<(n + 255) / 256, 256>>>(thrust::raw_pointer_cast(in.data()),
                                      thrust::raw_pointer_cast(out.data()), n);
}

int main() {
  thrust::device_vector<float> samples(1 << 16, 1.0f);
  shiftVector(samples, samples);
  cudaDeviceSynchronize();
  printf("%f\n", static_cast<float>(samples[0]));
  return 0;
}
