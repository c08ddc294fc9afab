// category: intra-warp
// needs: sync-semantics
// source: CUDA cooperative groups (tiled_partition)
// The rotation reads from the neighbouring 16-lane tile of the same warp,
// which the tile's sync does not wait for.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void rotateAcrossTiles(const int *in, int *out) {
  __shared__ int buf[128];
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * 128 + t]; // expect-race(a): intra-warp
  tile.sync();
  out[blockIdx.x * 128 + t] = buf[t ^ 16]; // expect-race(a): intra-warp
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 4 * 128 * sizeof(int));
  cudaMalloc(&out, 4 * 128 * sizeof(int));
  cudaMemset(in, 0, 4 * 128 * sizeof(int));
  rotateAcrossTiles<<<4, 128>>>(in, out);
  int first;
  cudaMemcpy(&first, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("out[0] = %d\n", first);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
