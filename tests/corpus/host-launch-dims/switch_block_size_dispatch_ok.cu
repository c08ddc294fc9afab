// category: host-launch-dims
// expect: race-free
// needs: host-facts
// source: reduction and scan wrappers that pick a kernel instantiation by
// block size with a switch
// The wrapper's block size comes from its caller's input, and each case
// launches the instantiation for its own label: under `case 256:` the
// block has 256 threads, so the blocks' slices of `partial` do not
// overlap. The kernel-only analysis sees any block size.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

template <unsigned kBlock>
__global__ void blockPartials(const float *in, float *partial, unsigned n) {
  unsigned slot = blockIdx.x * kBlock + threadIdx.x;
  float value = slot < n ? in[slot] * 2.0f : 0.0f;
  partial[slot] = value;
}

void partialsOnDevice(const float *in, float *partial, unsigned n, int threads, int blocks) {
  switch (threads) {
  case 512:
    blockPartials<512><<<blocks, threads>>>(in, partial, n);
    break;
  case 256:
    blockPartials<256><<<blocks, threads>>>(in, partial, n);
    break;
  case 128:
  case 64:
    // Two labels, one launch each: the block size is the label's.
    if (threads == 128)
      blockPartials<128><<<blocks, threads>>>(in, partial, n);
    else
      blockPartials<64><<<blocks, threads>>>(in, partial, n);
    break;
  default:
    fprintf(stderr, "unsupported block size %d\n", threads);
    return;
  }
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 256;
  unsigned n = 1 << 20;
  int blocks = (n + threads - 1) / threads;
  float *in, *partial;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&partial, (size_t)blocks * threads * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  partialsOnDevice(in, partial, n, threads, blocks);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(in);
  cudaFree(partial);
  return 0;
}
