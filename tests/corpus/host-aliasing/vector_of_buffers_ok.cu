// category: host-aliasing
// expect: race-free
// needs: host-facts
// source: multi-stream and multi-GPU samples that keep one device buffer
// per stream in a std::vector
// Each stream's input and output is allocated on its own into a
// `std::vector<float *>` sized up front; every launch reads stream s's
// input and writes stream s's output, so a launch never writes the buffer
// it reads, whichever stream it serves.
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

__global__ void scaleShifted(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    out[i] = 2.0f * in[i + 1];
}

int main() {
  const int streams = 4, n = 1 << 16;
  std::vector<float *> inputs(streams), outputs(streams);
  for (int s = 0; s < streams; ++s) {
    cudaMalloc(&inputs[s], n * sizeof(float));
    cudaMalloc(&outputs[s], n * sizeof(float));
  }
  for (int s = 0; s < streams; ++s)
    scaleShifted<<<n / 256, 256>>>(inputs[s], outputs[s], n);
  cudaDeviceSynchronize();
  for (int s = 0; s < streams; ++s) {
    cudaFree(inputs[s]);
    cudaFree(outputs[s]);
  }
  printf("done\n");
  return 0;
}
