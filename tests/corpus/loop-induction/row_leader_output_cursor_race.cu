// category: loop-induction
// needs: host-facts
// source: level-of-detail min/max pyramids of isosurface extractors: rows of 16 lanes reduce a column of cells with shuffles, and only each row's first lane stores, stepping its own output cursor
// rowRanges: as row_leader_output_cursor_ok, but the leader advances its
// cursor by kRows, half a layer's pairs: row 12's cursor in layer 1 is 49,
// the max slot row 24 fills in layer 0 (48 + 1), and rows 12 and 24 are
// different warps of the block with no barrier between them.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kRows = 25;
constexpr int kLayers = 9;

__global__ void rowRanges(const float *cells, float *out) {
  unsigned lane = threadIdx.x;
  unsigned row = threadIdx.y;
  unsigned cursor = 2 * (row + kRows * kLayers * blockIdx.x);
  const float *column = cells + (blockIdx.x * kLayers * kRows + row) * 16 + lane;
  for (int layer = 0; layer < kLayers; ++layer) {
    float lo = column[layer * kRows * 16], hi = lo;
    for (int width = 8; width > 0; width /= 2) {
      lo = fminf(lo, __shfl_xor_sync(0xffffffffu, lo, width, 16));
      hi = fmaxf(hi, __shfl_xor_sync(0xffffffffu, hi, width, 16));
    }
    if (lane == 0) {
      out[cursor] = lo; // expect-race(A): intra-block
      out[cursor + 1] = hi; // expect-race(A): intra-block
      constexpr unsigned kPairsPerLayer = 2 * kRows;
      cursor += kPairsPerLayer / 2;
    }
  }
}

int main() {
  const int blocks = 8;
  const size_t cells = size_t(blocks) * kLayers * kRows * 16;
  const size_t pairs = size_t(blocks) * kLayers * kRows * 2;
  float *in, *out;
  cudaMalloc(&in, cells * sizeof(float));
  cudaMalloc(&out, pairs * sizeof(float));
  cudaMemset(in, 0, cells * sizeof(float));
  rowRanges<<<blocks, dim3(16, kRows)>>>(in, out);
  float first = 0;
  cudaMemcpy(&first, out, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", first);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
