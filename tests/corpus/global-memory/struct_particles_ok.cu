// category: global-memory
// expect: race-free
// Array of structs: each thread integrates its own particle's members.
#include <cstdio>
#include <cuda_runtime.h>

struct Particle {
  float x, y;
  float vx, vy;
};

__global__ void integrate(Particle *p, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  p[i].x += p[i].vx * dt;
  p[i].y += p[i].vy * dt;
}

int main() {
  const int n = 4096;
  Particle *p;
  cudaMallocManaged(&p, n * sizeof(Particle));
  for (int i = 0; i < n; ++i)
    p[i] = Particle{0.0f, 0.0f, 1.0f, -1.0f};
  integrate<<<(n + 127) / 128, 128>>>(p, n, 0.01f);
  cudaDeviceSynchronize();
  printf("p[0] = (%f, %f)\n", p[0].x, p[0].y);
  cudaFree(p);
  return 0;
}
