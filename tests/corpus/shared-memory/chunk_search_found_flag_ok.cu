// category: shared-memory
// expect: race-free
// needs: host-facts
// source: inverse-CDF sampling kernels that scan a row's weights a block-wide chunk at a time and stop at the chunk whose running sum passes the sample
// Each block draws one category per row. Every thread clears the shared
// `found` flag itself and then tests it at the head of the chunk loop with
// no barrier between: the value it reads there in the first chunk is its
// own store, as all the stores in that interval write false. A thread that
// finds the bucket raises the flag; the barrier that ends the chunk makes
// every thread leave together. A row whose sample is zero skips the search
// for the whole block: the sample is read back from shared memory after a
// barrier, so every thread compares the same value with 0.0f.
// Without the launch, `categories` may be negative: then no chunk runs, and
// thread 0 reads the flag after the loop while the others clear it, a
// benign race the kernel-only analysis reports as one.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kThreads = 256;

__global__ void drawCategories(const float *weights, const float *samples, int *drawn,
                               int rows, int categories) {
  __shared__ float prefix[kThreads];
  __shared__ int first_hit;
  __shared__ bool found;
  for (int row = blockIdx.x; row < rows; row += gridDim.x) {
    if (threadIdx.x == 0) {
      first_hit = categories;
      prefix[0] = samples[row];
    }
    __syncthreads();
    float sample = prefix[0];
    __syncthreads();
    if (sample == 0.0f) {
      if (threadIdx.x == 0)
        drawn[row] = 0;
      continue;
    }
    int chunks = (categories + kThreads - 1) / kThreads;
    float carried = 0.0f;
    found = false;
    for (int chunk = 0; chunk < chunks && !found; ++chunk) {
      int category = chunk * kThreads + threadIdx.x;
      float weight = category < categories ? weights[row * categories + category] : 0.0f;
      prefix[threadIdx.x] = weight;
      __syncthreads();
      for (int step = 1; step < kThreads; step *= 2) {
        float sum = threadIdx.x >= step ? prefix[threadIdx.x - step] : 0.0f;
        __syncthreads();
        prefix[threadIdx.x] += sum;
        __syncthreads();
      }
      float upper = carried + prefix[threadIdx.x];
      float lower = upper - weight;
      if (category < categories && weight > 0.0f && lower <= sample && sample < upper) {
        atomicMin(&first_hit, category);
        found = true;
      }
      carried += prefix[kThreads - 1];
      __syncthreads();
    }
    if (threadIdx.x == 0)
      drawn[row] = found ? first_hit : categories - 1;
    __syncthreads();
  }
}

int main() {
  const int rows = 1024, categories = 1000;
  float *weights, *samples;
  int *drawn;
  cudaMalloc(&weights, rows * categories * sizeof(float));
  cudaMalloc(&samples, rows * sizeof(float));
  cudaMalloc(&drawn, rows * sizeof(int));
  // Bytes of 0x3f: every weight and sample is 0.747f, drawn at category 1.
  cudaMemset(weights, 0x3f, rows * categories * sizeof(float));
  cudaMemset(samples, 0x3f, rows * sizeof(float));
  drawCategories<<<128, kThreads>>>(weights, samples, drawn, rows, categories);
  int first = -1;
  cudaMemcpy(&first, drawn, sizeof(int), cudaMemcpyDeviceToHost);
  printf("row 0 drew %d\n", first);
  cudaFree(weights);
  cudaFree(samples);
  cudaFree(drawn);
  return 0;
}
