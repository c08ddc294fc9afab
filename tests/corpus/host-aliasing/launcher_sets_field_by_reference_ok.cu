// category: host-aliasing
// needs: host-facts
// expect: race-free
// source: scan and state-space kernels whose launcher takes the caller's parameter struct by reference, adds its own scratch buffers to it and launches from a dispatch lambda
// carryScan: each thread reads its element and its right neighbour of the
// input and stores its own element of the output and of the carry buffer.
// `main` fills the input and output fields; `launchScan` sets the carry
// field to the scratch buffer it is given, then launches from a lambda
// that captures the struct. Three separate allocations.
#include <cstdio>
#include <cuda_runtime.h>

struct ScanParams {
  const float *in;
  float *out;
  float *carry;
  int n;
};

__global__ void carryScan(ScanParams p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < p.n) {
    float pair = p.in[i] + p.in[i + 1];
    p.out[i] = pair;
    p.carry[i] = pair * 0.5f;
  }
}

void launchScan(ScanParams &p, float *scratch) {
  p.carry = scratch;
  auto run = [&] { carryScan<<<(p.n + 255) / 256, 256>>>(p); };
  run();
}

int main() {
  const int n = 1 << 16;
  float *in, *out, *scratch;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&scratch, n * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  ScanParams p;
  p.in = in;
  p.out = out;
  p.n = n;
  launchScan(p, scratch);
  float first = 0;
  cudaMemcpy(&first, out, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", first);
  cudaFree(in);
  cudaFree(out);
  cudaFree(scratch);
  return 0;
}
