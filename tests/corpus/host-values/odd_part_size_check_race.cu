// category: host-values
// needs: host-facts
// source: scans and sorting networks that check a power-of-two length
// The same pairing, but the host checks only that len is even (at least
// one factor of two): with len = 6 threads 2 and 4 both take pos = 4.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

static unsigned oddPart(unsigned *twos, unsigned n) {
  if (n == 0) {
    *twos = 0;
    return 0;
  }
  for (*twos = 0; (n & 1) == 0; n >>= 1)
    ++*twos;
  return n;
}

__global__ void pairSums(unsigned *data, unsigned len) {
  __shared__ unsigned s[2048];
  unsigned pos = 2 * threadIdx.x - (threadIdx.x & (len - 1));
  // Both copies on one line: every pair of them is one pair of lines.
  s[pos] = data[pos]; s[pos + len] = data[pos + len]; // expect-race(a): intra-block
  __syncthreads();
  data[threadIdx.x] = s[2 * threadIdx.x] + s[2 * threadIdx.x + 1];
}

int main(int argc, char **argv) {
  unsigned len = argc > 1 ? static_cast<unsigned>(atoi(argv[1])) : 256;
  unsigned twos = 0;
  unsigned rest = oddPart(&twos, len);
  assert(twos >= 1);
  (void)rest;
  assert(len <= 1024);
  unsigned *data;
  cudaMalloc(&data, 2048 * sizeof(unsigned));
  cudaMemset(data, 0, 2048 * sizeof(unsigned));
  pairSums<<<1, 512>>>(data, len);
  unsigned first = 0;
  cudaMemcpy(&first, data, sizeof(unsigned), cudaMemcpyDeviceToHost);
  printf("%u (2^%u)\n", first, twos);
  cudaFree(data);
  return 0;
}
