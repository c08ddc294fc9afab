// category: host-allocation
// expect: race-free
// needs: host-facts
// source: benchmark programs that time pitched against linear 2D and 3D
// accesses over a table of image sizes
// main walks constant tables of widths and heights (one index for both) and
// hands each size to helpers that allocate with cudaMallocPitch and
// cudaMalloc3D. The kernels step rows by the pitch the runtime chose, which
// is at least the row's width in bytes, and slices by pitch * height: no
// two threads meet. The 3D kernel takes the pitched pointer by value.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scaleRows(float *base, size_t pitch, int width, int height) {
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (y < height && x < width) {
    float *row = (float *)((char *)base + y * pitch);
    row[x] = row[x] * 0.5f;
  }
}

__global__ void scaleVolume(cudaPitchedPtr volume, int width, int height, int depth) {
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (z < depth && y < height && x < width) {
    char *bytes = (char *)volume.ptr;
    size_t slice = volume.pitch * height;
    float *row = (float *)(bytes + z * slice + y * volume.pitch);
    row[x] = row[x] * 0.5f;
  }
}

void runPlane(int width, int height) {
  float *plane;
  size_t pitch;
  cudaMallocPitch((void **)&plane, &pitch, width * sizeof(float), height);
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (height + 15) / 16);
  scaleRows<<<grid, block>>>(plane, pitch, width, height);
  cudaDeviceSynchronize();
  cudaFree(plane);
}

void runVolume(int width, int height, int depth) {
  cudaExtent extent = make_cudaExtent(width * sizeof(float), height, depth);
  cudaPitchedPtr volume;
  cudaMalloc3D(&volume, extent);
  dim3 block(16, 8, 1);
  dim3 grid((width + 15) / 16, (height + 7) / 8, depth);
  scaleVolume<<<grid, block>>>(volume, width, height, depth);
  cudaDeviceSynchronize();
  cudaFree(volume.ptr);
}

int main() {
  const int widths[] = {227, 640, 1280, 1920, 4096};
  const int heights[] = {227, 480, 720, 1080, 2160};
  const int depths[] = {1, 3};
  for (int i = 0; i < 5; i++)
    runPlane(widths[i], heights[i]);
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 2; j++)
      runVolume(widths[i], heights[i], depths[j]);
  printf("done\n");
  return 0;
}
