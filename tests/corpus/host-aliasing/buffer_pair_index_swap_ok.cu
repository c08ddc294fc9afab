// category: host-aliasing
// expect: race-free
// source: thermal simulation on a chip grid: two temperature grids held in
// an array of device pointers, selected by integer indices that the host
// loop exchanges through a temporary before each launch; the index of the
// grid holding the result is returned.
// 'src' and 'dst' only change places, starting as 1 and 0, so the kernel
// never reads the grid it writes.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void relax(const float *power, const float *in, float *out, int cols, int rows) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= cols - 1 || y >= rows - 1)
    return;
  int c = y * cols + x;
  out[c] = in[c] + 0.2f * (in[c - 1] + in[c + 1] + in[c - cols] + in[c + cols] - 4.0f * in[c]) +
           power[c];
}

int simulate(float *grids[2], const float *power, int cols, int rows, int steps) {
  dim3 block(16, 16);
  dim3 grid((cols + 15) / 16, (rows + 15) / 16);
  int src = 1, dst = 0;
  for (int t = 0; t < steps; ++t) {
    int temp = src;
    src = dst;
    dst = temp;
    relax<<<grid, block>>>(power, grids[src], grids[dst], cols, rows);
  }
  return dst;
}

int main() {
  const int cols = 512, rows = 512;
  const size_t bytes = cols * rows * sizeof(float);
  float *grids[2], *power;
  cudaMalloc(&grids[0], bytes);
  cudaMalloc(&grids[1], bytes);
  cudaMalloc(&power, bytes);
  cudaMemset(grids[0], 0, bytes);
  cudaMemset(grids[1], 0, bytes);
  cudaMemset(power, 0, bytes);
  int result = simulate(grids, power, cols, rows, 20);
  float corner = 0;
  cudaMemcpy(&corner, grids[result] + cols + 1, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", corner);
  cudaFree(grids[0]);
  cudaFree(grids[1]);
  cudaFree(power);
  return 0;
}
