// category: global-memory
// expect: race-free
// source: lattice-Boltzmann streaming steps that take their lattice
// directions as floating-point vectors the host fills from a table
// Each interior cell pushes its four moving populations to its four
// neighbours, one component of the destination's float4 per direction.
// The directions are floats, converted to integer offsets in the kernel;
// the host copies them out of a table no code writes, through a wrapper
// that takes them by value. Whatever their values, a direction is one
// parameter, so it shifts every cell by the same amount, and no two cells
// push into one component of one cell.
#include <cstdio>
#include <cuda_runtime.h>

struct Axis4 {
  float d0, d1, d2, d3; // one coordinate of the four moving directions
};

__global__ void streamStep(const float4 *in, float4 *out, const Axis4 dx, const Axis4 dy,
                           int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1)
    return;
  float4 f = in[y * width + x];
  out[(y + (int)dy.d0) * width + x + (int)dx.d0].x = f.x;
  out[(y + (int)dy.d1) * width + x + (int)dx.d1].y = f.y;
  out[(y + (int)dy.d2) * width + x + (int)dx.d2].z = f.z;
  out[(y + (int)dy.d3) * width + x + (int)dx.d3].w = f.w;
}

void stream(const float4 *in, float4 *out, const Axis4 dx, const Axis4 dy, int width,
            int height) {
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (height + 15) / 16);
  streamStep<<<grid, block>>>(in, out, dx, dy, width, height);
}

int main() {
  const int width = 256, height = 128;
  // East, north, west, south.
  float e[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
  Axis4 dx, dy;
  dx.d0 = e[0][0]; dy.d0 = e[0][1];
  dx.d1 = e[1][0]; dy.d1 = e[1][1];
  dx.d2 = e[2][0]; dy.d2 = e[2][1];
  dx.d3 = e[3][0]; dy.d3 = e[3][1];
  float4 *in, *out;
  cudaMalloc(&in, width * height * sizeof(float4));
  cudaMalloc(&out, width * height * sizeof(float4));
  cudaMemset(in, 0, width * height * sizeof(float4));
  stream(in, out, dx, dy, width, height);
  cudaDeviceSynchronize();
  printf("streamed %d cells\n", width * height);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
