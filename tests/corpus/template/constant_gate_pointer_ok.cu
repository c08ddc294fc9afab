// category: template
// expect: race-free
// source: gated activation kernels instantiated per feature switch, which take a row pointer only where the switch is on (`kHasGate ? gate + row : nullptr`)
// gateRows: each thread reads its element of the input and, in the gated
// instantiation, of the gate row, and stores its neighbour's slot of the
// output. The gate pointer is chosen by a template constant: in the
// instantiation launched it is the gate buffer's row, not a pointer that
// could be the output.
#include <cstdio>
#include <cuda_runtime.h>

template <bool kHasGate>
__global__ void gateRows(const float *in, const float *gate, float *out, int width) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  const float *gate_row = kHasGate ? gate + blockIdx.y * width : nullptr;
  float v = in[blockIdx.y * width + col];
  if (kHasGate)
    v *= gate_row[col];
  if (col + 1 < width)
    out[blockIdx.y * width + col + 1] = v;
}

int main() {
  const int width = 1024, rows = 16;
  float *in, *gate, *out;
  cudaMalloc(&in, rows * width * sizeof(float));
  cudaMalloc(&gate, rows * width * sizeof(float));
  cudaMalloc(&out, rows * width * sizeof(float));
  cudaMemset(in, 0, rows * width * sizeof(float));
  cudaMemset(gate, 0, rows * width * sizeof(float));
  gateRows<true><<<dim3(width / 256, rows), 256>>>(in, gate, out, width);
  float first = 0;
  cudaMemcpy(&first, out + 1, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", first);
  cudaFree(in);
  cudaFree(gate);
  cudaFree(out);
  return 0;
}
