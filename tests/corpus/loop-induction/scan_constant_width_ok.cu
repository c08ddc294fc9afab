// category: loop-induction
// needs: host-facts
// source: benchmark suites' block scans, a work-efficient (up-sweep,
// down-sweep) scan of N elements per tile with N a template argument, each
// block walking tiles grid-stride
// Race-free: the up-sweep doubles `offset` while `d` halves from N / 2, and
// the down-sweep halves it back while `d` doubles, so in the down-sweep's
// last step `offset` is 1 and each thread touches only its own two
// elements, 2t and 2t + 1. That is why no barrier is needed between that
// step, the copy out and the next tile's loads: each thread reads and
// writes only its own two elements there. The loops run a known number of
// times (N is a constant), so `offset` is known in every step.
// expect: race-free
#include <cstdio>
#include <cuda_runtime.h>

template <typename T, int N>
__global__ void tileScan(long tiles, T *out, const T *in) {
  __shared__ T buf[N];
  for (long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const T *src = in + tile * N;
    T *dst = out + tile * N;
    int t = threadIdx.x;
    buf[2 * t] = src[2 * t];
    buf[2 * t + 1] = src[2 * t + 1];
    int offset = 1;
    for (int d = N / 2; d > 0; d >>= 1) {
      __syncthreads();
      if (t < d)
        buf[offset * (2 * t + 2) - 1] += buf[offset * (2 * t + 1) - 1];
      offset *= 2;
    }
    if (t == 0)
      buf[N - 1] = 0;
    for (int d = 1; d < N; d *= 2) {
      offset >>= 1;
      __syncthreads();
      if (t < d) {
        int left = offset * (2 * t + 1) - 1;
        int right = offset * (2 * t + 2) - 1;
        T carry = buf[left];
        buf[left] = buf[right];
        buf[right] += carry;
      }
    }
    dst[2 * t] = buf[2 * t];
    dst[2 * t + 1] = buf[2 * t + 1];
  }
}

template <typename T, int N>
void scanTiles(long elements) {
  long tiles = (elements + N - 1) / N;
  T *d_in, *d_out;
  cudaMalloc(&d_in, tiles * N * sizeof(T));
  cudaMalloc(&d_out, tiles * N * sizeof(T));
  cudaMemset(d_in, 0, tiles * N * sizeof(T));
  tileScan<T, N><<<64, N / 2>>>(tiles, d_out, d_in);
  cudaDeviceSynchronize();
  cudaFree(d_in);
  cudaFree(d_out);
}

int main() {
  scanTiles<int, 128>(1 << 20);
  scanTiles<float, 256>(1 << 20);
  printf("done\n");
  return 0;
}
