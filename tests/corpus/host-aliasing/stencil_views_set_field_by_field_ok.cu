// category: host-aliasing
// expect: race-free
// needs: host-facts
// source: stencil and solver codes that gather their device buffers into a by-value struct, filled one field at a time before each launch
// relax: one Jacobi sweep of a 1D stencil. The buffers travel in a struct
// passed by value; the host sets its fields one by one, the old values from
// the field `from` and the new ones into `to`, the residual into a buffer
// the host allocates straight into the struct's field. Each sweep reads
// `from` around i and writes `to` at i: with `from` and `to` distinct
// allocations (the assignments that reach the launch say which), no thread
// writes what another reads.
#include <cstdio>
#include <cuda_runtime.h>

struct Sweep {
  const float *from;
  float *to;
  float *residual;
  int n;
};

__global__ void relax(Sweep s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < s.n - 1) {
    float next = 0.5f * (s.from[i - 1] + s.from[i + 1]);
    s.to[i] = next;
    s.residual[i] = next * next;
  }
}

int main() {
  const int n = 1 << 16;
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMemset(a, 0, n * sizeof(float));
  Sweep s;
  s.n = n;
  cudaMalloc(&s.residual, n * sizeof(float));
  s.from = a;
  s.to = b;
  relax<<<n / 256, 256>>>(s);
  float last = 0;
  cudaMemcpy(&last, s.residual + 1, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", last);
  cudaFree(a);
  cudaFree(b);
  cudaFree(s.residual);
  return 0;
}
