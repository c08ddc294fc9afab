// category: loop-induction
// expect: race-free
// needs: host-facts
// source: level-of-detail min/max pyramids of isosurface extractors: rows of 16 lanes reduce a column of cells with shuffles, and only each row's first lane stores, stepping its own output cursor
// rowRanges: a block of (16, kRows) threads walks kLayers layers of its
// tile. Each row of 16 lanes reduces its layer with xor shuffles; lane 0 of
// the row stores the row's min and max at out[cursor] and out[cursor + 1]
// and advances the cursor by 2 * kRows. The step sits in the `if (lane ==
// 0)` branch, whose condition the loop never changes: in layer k the
// leader's cursor is 2 * (row + kRows * block) + 2 * kRows * k, one pair of
// its own per row and layer.
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
      out[cursor] = lo;
      out[cursor + 1] = hi;
      constexpr unsigned kPairsPerLayer = 2 * kRows;
      cursor += kPairsPerLayer;
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
