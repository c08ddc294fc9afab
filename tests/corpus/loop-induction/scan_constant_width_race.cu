// category: loop-induction
// source: benchmark suites' block scans, a work-efficient (up-sweep,
// down-sweep) scan of N elements per tile with N a template argument, each
// block walking tiles grid-stride
// As scan_constant_width_ok.cu, but the down-sweep stops one step early
// (`d < N / 2`): its last step runs with `offset` 2, where thread t swaps
// elements 4t + 1 and 4t + 3 (on one line). With no barrier after it,
// threads 2t and 2t + 1 copy those out while thread t may still be
// writing them, in the same warp. (The barrier at the end of the tile
// keeps the next tile's loads out of it.)
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
    for (int d = 1; d < N / 2; d *= 2) {
      offset >>= 1;
      __syncthreads();
      if (t < d) {
        int left = offset * (2 * t + 1) - 1;
        int right = offset * (2 * t + 2) - 1;
        T carry = buf[left]; buf[left] = buf[right]; buf[right] += carry; // expect-race(R1): intra-warp
      }
    }
    dst[2 * t] = buf[2 * t];
    dst[2 * t + 1] = buf[2 * t + 1]; // expect-race(R1): intra-warp
    __syncthreads();
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
