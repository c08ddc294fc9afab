// category: barrier-divergence
// __syncwarp() with the full mask is reached only by the lower half of the
// warp: the mask names lanes that never arrive.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void halfWarpExchange(const int *in, int *out) {
  __shared__ int buf[32];
  int lane = threadIdx.x;
  if (lane < 16) {
    buf[lane] = in[lane];
    __syncwarp(); // expect-divergence: barrier-divergence
    out[lane] = buf[15 - lane];
  }
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 32 * sizeof(int));
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMemset(in, 0, 32 * sizeof(int));
  halfWarpExchange<<<1, 32>>>(in, out);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  printf("done\n");
  return 0;
}
