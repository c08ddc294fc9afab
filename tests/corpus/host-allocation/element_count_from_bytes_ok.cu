// category: host-allocation
// expect: race-free
// needs: host-facts
// Each thread owns a slice of `per` elements; per is derived from the
// allocation size, which is positive, so per >= 1 and slices are disjoint.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void fillSlices(int *buf, int per) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < per; ++k)
    buf[t * per + k] = t;
  buf[t * per] = -t;
}

int main(int argc, char **argv) {
  const int threads = 4096;
  size_t bytes = argc > 1 ? strtoul(argv[1], nullptr, 10) : 1 << 20;
  if (bytes < threads * sizeof(int)) {
    fprintf(stderr, "need at least %zu bytes\n", threads * sizeof(int));
    return 1;
  }
  int *buf;
  cudaMalloc(&buf, bytes);
  int per = static_cast<int>(bytes / sizeof(int) / threads);
  fillSlices<<<threads / 256, 256>>>(buf, per);
  cudaDeviceSynchronize();
  cudaFree(buf);
  printf("done\n");
  return 0;
}
