// category: perf
// expect: race-free
// source: particle updates with an array of structures and a structure of arrays
// In the array of structures, neighbouring lanes' x fields are 16 bytes
// apart: a warp's 32 floats span 512 bytes, 16 sectors where 4 would do.
// The structure of arrays puts them side by side: 4 sectors.
#include <cstdio>
#include <cuda_runtime.h>

struct Particle {
  float x, y, z, mass;
};

__global__ void driftAos(Particle *particles, float dx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    particles[i].x += dx; // expect-perf: sectors 16/4
}

__global__ void driftSoa(float *xs, float dx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    xs[i] += dx; // expect-perf: sectors 4/4
}

int main() {
  const int n = 1 << 16;
  Particle *particles;
  float *xs;
  cudaMalloc(&particles, n * sizeof(Particle));
  cudaMalloc(&xs, n * sizeof(float));
  cudaMemset(particles, 0, n * sizeof(Particle));
  cudaMemset(xs, 0, n * sizeof(float));
  driftAos<<<n / 256, 256>>>(particles, 0.1f, n);
  driftSoa<<<n / 256, 256>>>(xs, 0.1f, n);
  cudaDeviceSynchronize();
  printf("moved %d particles twice\n", n);
  cudaFree(particles);
  cudaFree(xs);
  return 0;
}
