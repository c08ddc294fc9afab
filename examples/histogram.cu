// Byte histogram of a buffer, one shared-memory histogram per block merged
// into the global one.
//
// What gpurace finds: an inter-block data race. The merge adds each block's
// bin into the global bin with a plain `+=`, so two blocks can read the same
// old count and one update is lost. The shared-memory part is correct: the
// bins are cleared, barrier, counted with shared atomics, barrier, merged.
// Fix: atomicAdd(&global[bin], local[bin]).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

constexpr int kBins = 256;
constexpr int kThreads = 256;

__global__ void histogram(const unsigned char *data, int n,
                          unsigned int *global) {
  __shared__ unsigned int local[kBins];
  local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  global[threadIdx.x] += local[threadIdx.x];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 24;
  std::vector<unsigned char> host(n);
  for (int i = 0; i < n; ++i)
    host[i] = static_cast<unsigned char>(rand());
  unsigned char *data;
  unsigned int *bins;
  cudaMalloc(&data, n);
  cudaMalloc(&bins, kBins * sizeof(unsigned int));
  cudaMemcpy(data, host.data(), n, cudaMemcpyHostToDevice);
  cudaMemset(bins, 0, kBins * sizeof(unsigned int));
  histogram<<<64, kThreads>>>(data, n, bins);
  std::vector<unsigned int> result(kBins);
  cudaMemcpy(result.data(), bins, kBins * sizeof(unsigned int),
             cudaMemcpyDeviceToHost);
  unsigned long long total = 0;
  for (unsigned int count : result)
    total += count;
  printf("counted %llu of %d bytes\n", total, n);
  cudaFree(data);
  cudaFree(bins);
  return total == static_cast<unsigned long long>(n) ? 0 : 1;
}
