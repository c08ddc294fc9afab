// A CUDA program that tolerates having no GPU: it asks for a device, and
// when there is one it launches a kernel. Run under `gpurace run` on a
// machine without a GPU (or driver) it must exit as it would alone.
#include <cstdio>

__global__ void fill(int *a) { a[threadIdx.x] = threadIdx.x; }

int main() {
  int devices = 0;
  cudaError_t error = cudaGetDeviceCount(&devices);
  if (error != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: %s\n", cudaGetErrorString(error));
    return 0;
  }
  int *a = nullptr;
  if (cudaMalloc(&a, 32 * sizeof(int)) != cudaSuccess)
    return 1;
  fill<<<1, 32>>>(a);
  error = cudaDeviceSynchronize();
  cudaFree(a);
  std::printf("ran: %s\n", cudaGetErrorString(error));
  return error == cudaSuccess ? 0 : 1;
}
