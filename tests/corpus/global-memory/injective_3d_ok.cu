// category: global-memory
// expect: race-free
// Initializes a 3D volume with a 3D grid of 3D blocks.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void initVolume(float *vol, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz)
    vol[(z * ny + y) * nx + x] = 0.01f * (x + y + z);
}

int main() {
  const int nx = 128, ny = 96, nz = 64;
  float *vol;
  cudaMalloc(&vol, nx * ny * nz * sizeof(float));
  dim3 block(8, 8, 4);
  dim3 grid((nx + 7) / 8, (ny + 7) / 8, (nz + 3) / 4);
  initVolume<<<grid, block>>>(vol, nx, ny, nz);
  cudaDeviceSynchronize();
  float corner;
  cudaMemcpy(&corner, vol, sizeof(float), cudaMemcpyDeviceToHost);
  printf("vol[0] = %f\n", corner);
  cudaFree(vol);
  return 0;
}
