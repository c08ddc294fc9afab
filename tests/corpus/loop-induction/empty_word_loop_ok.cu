// category: loop-induction
// expect: race-free
// needs: host-facts
// source: generic shuffles and copies that move a value word by word, the
// first word outside the loop and the others inside it
// For a one-word type the loop over the remaining words runs no
// iteration; for a two-word type it runs one. Each thread writes its own
// words and then its own slot of the summary.
#include <cstdio>
#include <cuda_runtime.h>

template <typename T>
__device__ void storeWords(unsigned *out, T value) {
  constexpr int kWords = (sizeof(T) + sizeof(unsigned) - 1) / sizeof(unsigned);
  const unsigned *words = reinterpret_cast<const unsigned *>(&value);
  out[threadIdx.x * kWords] = words[0];
  for (int w = 1; w < kWords; ++w)
    out[threadIdx.x * kWords + w] = words[w];
}

__global__ void record(unsigned *narrow, unsigned *wide, unsigned *last) {
  storeWords(narrow, (float)threadIdx.x);
  storeWords(wide, (double)threadIdx.x);
  last[threadIdx.x] = threadIdx.x;
}

int main() {
  unsigned *narrow, *wide, *last;
  cudaMalloc(&narrow, 256 * sizeof(unsigned));
  cudaMalloc(&wide, 512 * sizeof(unsigned));
  cudaMalloc(&last, 256 * sizeof(unsigned));
  record<<<1, 256>>>(narrow, wide, last);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(narrow);
  cudaFree(wide);
  cudaFree(last);
  return 0;
}
