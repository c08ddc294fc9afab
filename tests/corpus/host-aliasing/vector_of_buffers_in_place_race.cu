// category: host-aliasing
// source: multi-stream and multi-GPU samples that keep one device buffer
// per stream in a std::vector
// As vector_of_buffers_ok.cu, but the last stream works in place: its
// output slot is set to its input (`outputs.back() = inputs.back()`), so
// that launch's thread i reads element i + 1, which thread i + 1 writes.
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

__global__ void scaleShifted(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    out[i] = 2.0f * in[i + 1]; // expect-race(a): inter-block
}

int main() {
  const int streams = 4, n = 1 << 16;
  std::vector<float *> inputs(streams), outputs(streams);
  for (int s = 0; s < streams; ++s) {
    cudaMalloc(&inputs[s], n * sizeof(float));
    cudaMalloc(&outputs[s], n * sizeof(float));
  }
  cudaFree(outputs.back());
  outputs.back() = inputs.back();
  for (int s = 0; s < streams; ++s)
    scaleShifted<<<n / 256, 256>>>(inputs[s], outputs[s], n);
  cudaDeviceSynchronize();
  for (int s = 0; s < streams; ++s) {
    cudaFree(inputs[s]);
    if (outputs[s] != inputs[s])
      cudaFree(outputs[s]);
  }
  printf("done\n");
  return 0;
}
