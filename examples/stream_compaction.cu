// Stream compaction: copies the positive values of an array to a dense
// output. Each block counts its survivors in shared memory, reserves a
// range of the output with one atomic on the global cursor, and its
// threads write into that range.
//
// What gpurace finds: a scoped race. The reservation uses
// atomicAdd_block, whose scope is the block, on a cursor that every block
// updates: two blocks can reserve the same range. Fix: atomicAdd (device
// scope).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

constexpr int kThreads = 256;

__global__ void compact(const float *in, int n, float *out, int *cursor) {
  __shared__ int count;
  __shared__ int base;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    count = 0;
  __syncthreads();
  bool keep = i < n && in[i] > 0.0f;
  int slot = keep ? atomicAdd(&count, 1) : 0;
  __syncthreads();
  if (threadIdx.x == 0)
    base = atomicAdd_block(cursor, count);
  __syncthreads();
  if (keep)
    out[base + slot] = in[i];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i)
    host[i] = (rand() % 2 ? 1.0f : -1.0f) * i;
  float *in, *out;
  int *cursor;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&cursor, sizeof(int));
  cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(cursor, 0, sizeof(int));
  compact<<<(n + kThreads - 1) / kThreads, kThreads>>>(in, n, out, cursor);
  int kept = 0;
  cudaMemcpy(&kept, cursor, sizeof(int), cudaMemcpyDeviceToHost);
  printf("kept %d of %d values\n", kept, n);
  cudaFree(in);
  cudaFree(out);
  cudaFree(cursor);
  return 0;
}
