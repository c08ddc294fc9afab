// category: host-aliasing
// needs: host-facts
// source: stencil and solver codes that gather their device buffers into a by-value struct, filled one field at a time before each launch
// relax: as stencil_views_set_field_by_field_ok, but the sweep is set up in
// place: `to` gets the same buffer as `from`, so thread i writes element i
// while its neighbours i - 1 and i + 1 read it, in one warp.
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
    float next = 0.5f * (s.from[i - 1] + s.from[i + 1]); // expect-race(A): intra-warp
    s.to[i] = next; // expect-race(A): intra-warp
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
  s.to = a;
  relax<<<n / 256, 256>>>(s);
  float last = 0;
  cudaMemcpy(&last, s.residual + 1, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", last);
  cudaFree(a);
  cudaFree(b);
  cudaFree(s.residual);
  return 0;
}
