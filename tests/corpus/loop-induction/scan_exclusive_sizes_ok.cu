// category: loop-induction
// expect: race-free
// needs: host-facts
// source: the exclusive work-efficient scan of GPU programming texts (one block scans n elements with n/2 threads)
// The up-sweep doubles `offset` from 1 while `d` halves from n/2, so it
// leaves `offset` at the first power of two above n/2; the down-sweep
// halves `offset` before each step while `d` doubles from 1 below n. For a
// power-of-two n, `offset` is at least 1 in every step and the steps'
// indices offset*(2t+1)-1 and offset*(2t+2)-1 of different threads never
// meet. For other sizes `offset` reaches 0 in the last step and every
// active thread swaps element -1: the host's sizes (256 or 512) are what
// make the kernel race-free, which a kernel-only analysis cannot know.
#include <cstdio>
#include <cuda_runtime.h>

constexpr unsigned kMaxElements = 512;

__global__ void exclusiveScan(const unsigned *in, unsigned *out, unsigned n) {
  __shared__ unsigned part[kMaxElements];
  unsigned t = threadIdx.x;
  part[2 * t] = in[2 * t];
  part[2 * t + 1] = in[2 * t + 1];

  unsigned offset = 1;
  for (unsigned d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      unsigned ai = offset * (2 * t + 1) - 1;
      unsigned bi = offset * (2 * t + 2) - 1;
      part[bi] += part[ai];
    }
    offset *= 2;
  }
  if (t == 0)
    part[n - 1] = 0;

  for (unsigned d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      unsigned ai = offset * (2 * t + 1) - 1;
      unsigned bi = offset * (2 * t + 2) - 1;
      unsigned left = part[ai];
      part[ai] = part[bi];
      part[bi] += left;
    }
  }
  __syncthreads();
  out[2 * t] = part[2 * t];
  out[2 * t + 1] = part[2 * t + 1];
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? 256 : kMaxElements;
  unsigned *in, *out;
  cudaMalloc(&in, kMaxElements * sizeof(unsigned));
  cudaMalloc(&out, kMaxElements * sizeof(unsigned));
  cudaMemset(in, 0, kMaxElements * sizeof(unsigned));
  exclusiveScan<<<1, n / 2>>>(in, out, n);
  unsigned last = 0;
  cudaMemcpy(&last, out + n - 1, sizeof(last), cudaMemcpyDeviceToHost);
  printf("%u\n", last);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
