// category: loop-induction
// needs: host-facts
// source: generic shuffles and copies that move a value word by word, the
// first word outside the loop and the others inside it
// For a one-word type the loop over the remaining words runs no
// iteration. After it every thread of the block stores its index into the
// same slot: a race whatever the loop did.
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

__global__ void record(unsigned *out, unsigned *last) {
  storeWords(out, (float)threadIdx.x);
  *last = threadIdx.x; // expect-race(A): intra-warp
}

int main() {
  unsigned *out, *last;
  cudaMalloc(&out, 256 * sizeof(unsigned));
  cudaMalloc(&last, sizeof(unsigned));
  record<<<1, 256>>>(out, last);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(out);
  cudaFree(last);
  return 0;
}
