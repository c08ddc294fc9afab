// category: host-allocation
// expect: race-free
// needs: host-facts
// A volume from cudaMalloc3D: the kernel strides rows by the returned pitch
// (at least the requested row width) and slices by pitch * ysize.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void clearVolume(char *base, size_t pitch, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  int z = blockIdx.z;
  if (x < nx && y < ny && z < nz) {
    float *row = (float *)(base + (z * ny + y) * pitch);
    row[x] = 0.0f;
  }
}

int main() {
  const int nx = 300, ny = 200, nz = 50;
  cudaExtent extent = make_cudaExtent(nx * sizeof(float), ny, nz);
  cudaPitchedPtr vol;
  cudaMalloc3D(&vol, extent);
  dim3 block(128);
  dim3 grid((nx + 127) / 128, ny, nz);
  clearVolume<<<grid, block>>>((char *)vol.ptr, vol.pitch, nx, ny, nz);
  cudaDeviceSynchronize();
  cudaFree(vol.ptr);
  printf("done\n");
  return 0;
}
