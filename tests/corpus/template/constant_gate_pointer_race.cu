// category: template
// needs: host-facts
// source: gated activation kernels instantiated per feature switch, which take a row pointer only where the switch is on (`kHasGate ? gate + row : nullptr`)
// gateRows: as constant_gate_pointer_ok, but the output is the gate
// buffer (the gate is updated in place): thread i stores the gate element
// that thread i + 1 reads.
#include <cstdio>
#include <cuda_runtime.h>

template <bool kHasGate>
__global__ void gateRows(const float *in, const float *gate, float *out, int width) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  const float *gate_row = kHasGate ? gate + blockIdx.y * width : nullptr;
  float v = in[blockIdx.y * width + col];
  if (kHasGate)
    v *= gate_row[col]; // expect-race(A): intra-warp
  if (col + 1 < width)
    out[blockIdx.y * width + col + 1] = v; // expect-race(A): intra-warp
}

int main() {
  const int width = 1024, rows = 16;
  float *in, *gate, *out;
  cudaMalloc(&in, rows * width * sizeof(float));
  cudaMalloc(&gate, rows * width * sizeof(float));
  cudaMalloc(&out, rows * width * sizeof(float));
  cudaMemset(in, 0, rows * width * sizeof(float));
  cudaMemset(gate, 0, rows * width * sizeof(float));
  gateRows<true><<<dim3(width / 256, rows), 256>>>(in, gate, gate, width);
  float first = 0;
  cudaMemcpy(&first, out + 1, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", first);
  cudaFree(in);
  cudaFree(gate);
  cudaFree(out);
  return 0;
}
