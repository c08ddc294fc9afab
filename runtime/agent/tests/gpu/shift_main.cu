// Launches the instrumented racy shift kernel (compiled in with -include) on
// the GPU. Exit 77 when there is no usable device: the test then skips.
#include <cstdio>

int main() {
  int devices = 0;
  cudaError_t error = cudaGetDeviceCount(&devices);
  if (error != cudaSuccess || devices == 0) {
    std::printf("SKIP: no usable CUDA device: %s\n", cudaGetErrorString(error));
    return 77;
  }
  int *a = nullptr;
  if (cudaMalloc(&a, 128 * sizeof(int)) != cudaSuccess)
    return 1;
  cudaMemset(a, 0, 128 * sizeof(int));
  shift<<<2, 64>>>(a, 128);
  error = cudaDeviceSynchronize();
  cudaFree(a);
  if (error != cudaSuccess)
    std::printf("launch failed: %s\n", cudaGetErrorString(error));
  return error == cudaSuccess ? 0 : 1;
}
