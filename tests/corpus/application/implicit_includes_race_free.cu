// category: application
// expect: race-free
// source: the shape of toolkit sample programs (implicit includes, helper-style error checks)
// Host code in the style of the CUDA samples: exit, malloc, free and memcpy
// with no C header included (nvcc's cuda_runtime.h brings them; printf and
// assert need <stdio.h> and <assert.h> with CUDA 13), the driver API header, an error-check macro defined only when the runtime's
// driver types are visible, host calls of min/max, and the device's warp size
// read from cudaDeviceProp. Each thread scales its own element.
#include <assert.h>
#include <cuda.h>
#include <stdio.h>

#ifdef __DRIVER_TYPES_H__
#define CHECK(call) checkResult((call), #call, __FILE__, __LINE__)
static void checkResult(cudaError_t result, const char *what, const char *file,
                        int line) {
  if (result != cudaSuccess) {
    fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, what,
            cudaGetErrorName(result), cudaGetErrorString(result));
    exit(EXIT_FAILURE);
  }
}
#endif

__global__ void scaleRows(float *data, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  if (i < n)
    data[i] = data[i] * factor + (lane == 0 ? 0.0f : 0.0f);
}

int main() {
#if CUDA_VERSION >= 11000
  CUresult driverStatus = CUDA_SUCCESS;
  assert(driverStatus == CUDA_SUCCESS);
#endif
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int threads = min(256, max(prop.warpSize, 32));
  const int n = 1 << 12;
  float *host = (float *)malloc(n * sizeof(float));
  float *copy = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    host[i] = (float)i;
  memcpy(copy, host, n * sizeof(float));
  float *data;
  CHECK(cudaMalloc(&data, n * sizeof(float)));
  CHECK(cudaMemcpy(data, copy, n * sizeof(float), cudaMemcpyHostToDevice));
  scaleRows<<<(n + threads - 1) / threads, threads>>>(data, n, 2.0f);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(host, data, n * sizeof(float), cudaMemcpyDeviceToHost));
  printf("%s: warp size %d, last %f\n", prop.name, prop.warpSize, host[n - 1]);
  CHECK(cudaFree(data));
  free(host);
  free(copy);
  return 0;
}
