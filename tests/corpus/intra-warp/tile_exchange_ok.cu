// category: intra-warp
// expect: race-free
// needs: sync-semantics
// source: CUDA cooperative groups (tiled_partition)
// Each 16-lane tile rotates values among its own lanes: the tile's sync
// orders every lane that reads against the lane of its tile that wrote.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void rotateInTile(const int *in, int *out) {
  __shared__ int buf[128];
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * 128 + t];
  tile.sync();
  int base = t / 16 * 16;
  out[blockIdx.x * 128 + t] = buf[base + (t + 1) % 16];
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 4 * 128 * sizeof(int));
  cudaMalloc(&out, 4 * 128 * sizeof(int));
  cudaMemset(in, 0, 4 * 128 * sizeof(int));
  rotateInTile<<<4, 128>>>(in, out);
  int first;
  cudaMemcpy(&first, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("out[0] = %d\n", first);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
