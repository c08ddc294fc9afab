// category: host-aliasing
// needs: host-facts
// source: scan and state-space kernels whose launcher takes the caller's parameter struct by reference, adds its own scratch buffers to it and launches from a dispatch lambda
// carryScan: as launcher_sets_field_by_reference_ok, but `main` hands the
// input buffer to the launcher as its scratch, so the carry field is the
// input: thread i stores carry[i] while thread i - 1 reads it as its right
// neighbour.
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
    float pair = p.in[i] + p.in[i + 1]; // expect-race(A): intra-warp
    p.out[i] = pair;
    p.carry[i] = pair * 0.5f; // expect-race(A): intra-warp
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
  launchScan(p, in);
  float first = 0;
  cudaMemcpy(&first, out, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", first);
  cudaFree(in);
  cudaFree(out);
  cudaFree(scratch);
  return 0;
}
