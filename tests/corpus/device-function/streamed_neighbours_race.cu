// category: device-function
// source: lattice-Boltzmann streaming kernels that compute the target cells
// of a thread's distributions in a helper returning a small struct of
// indices by value
// Each interior thread computes, in a helper, the four neighbours it streams
// to and writes one direction's value into each. The helper's down and up
// neighbours both land in one array here: the thread below a cell writes it
// as its up neighbour while the thread above writes it as its down one.
#include <cstdio>
#include <cuda_runtime.h>

struct Neighbours {
  int right, down, left, up;
};

__device__ Neighbours neighboursOf(int x, int y, int width) {
  Neighbours n;
  n.right = y * width + x + 1;
  n.down = (y + 1) * width + x;
  n.left = y * width + x - 1;
  n.up = (y - 1) * width + x;
  return n;
}

__global__ void stream(const float4 *in, float *east, float *south, float *west,
                       float *north, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1)
    return;
  float4 f = in[y * width + x];
  Neighbours n = neighboursOf(x, y, width);
  east[n.right] = f.x;
  south[n.down] = f.y; // expect-race(a): inter-block
  west[n.left] = f.z;
  south[n.up] = f.w; // expect-race(a): inter-block
}

int main() {
  const int width = 256, height = 128, cells = width * height;
  float4 *in;
  float *east, *south, *west, *north;
  cudaMalloc(&in, cells * sizeof(float4));
  cudaMalloc(&east, cells * sizeof(float));
  cudaMalloc(&south, cells * sizeof(float));
  cudaMalloc(&west, cells * sizeof(float));
  cudaMalloc(&north, cells * sizeof(float));
  cudaMemset(in, 0, cells * sizeof(float4));
  stream<<<dim3(width / 16, height / 16), dim3(16, 16)>>>(in, east, south, west, north,
                                                         width, height);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(in);
  cudaFree(east);
  cudaFree(south);
  cudaFree(west);
  cudaFree(north);
  return 0;
}
