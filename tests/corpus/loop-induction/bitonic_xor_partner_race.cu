// category: loop-induction
// source: bitonic sort of one block's keys in shared memory as launched
// from device code in quicksort-style recursions: each thread keeps one
// key, its partner in a step is `tid ^ j` with j halved from k / 2 to 1
// and k doubled up to the block size. Both threads of a pair read both
// keys, meet at a barrier, and each writes its key into the other's slot
// when the pair is out of order, so a step's writes go to distinct slots
// (x ^ j names a different slot for every x when j is a power of two).
// Here the barrier between the reads and the writes is missing: a thread
// can overwrite its partner's slot before the partner has read its own key.
#include <cstdio>
#include <cuda_runtime.h>

#define KEYS 512

__global__ void sortBlock(unsigned *keys, unsigned count) {
  __shared__ unsigned s[KEYS];
  unsigned tid = threadIdx.x;
  s[tid] = tid < count ? keys[tid] : 0xffffffffu;
  __syncthreads();
  for (unsigned k = 2; k <= blockDim.x; k *= 2) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      unsigned partner = tid ^ j;
      unsigned mine = s[tid]; // expect-race(a): intra-block
      unsigned theirs = s[partner];
      bool ascending = (tid & k) == 0;
      bool low = tid < partner;
      bool swap = low ? (mine > theirs) == ascending : (mine < theirs) == ascending;
      if (swap)
        s[partner] = mine; // expect-race(a): intra-block
      __syncthreads();
    }
  }
  if (tid < count)
    keys[tid] = s[tid];
}

int main() {
  const unsigned count = 500;
  unsigned host[KEYS];
  for (unsigned i = 0; i < count; ++i)
    host[i] = (i * 7919u) % 1000u;
  unsigned *keys;
  cudaMalloc(&keys, KEYS * sizeof(unsigned));
  cudaMemcpy(keys, host, count * sizeof(unsigned), cudaMemcpyHostToDevice);
  sortBlock<<<1, KEYS>>>(keys, count);
  cudaMemcpy(host, keys, count * sizeof(unsigned), cudaMemcpyDeviceToHost);
  printf("smallest %u largest %u\n", host[0], host[count - 1]);
  cudaFree(keys);
  return 0;
}
