// category: loop-induction
// expect: race-free
// needs: host-facts
// source: row walks that stop at the first of two limits (a ragged row end
// or the round budget), as in CSR and ELL row kernels and tiled scans:
// each thread steps its column by the block's width, sums its elements,
// and stores the sum at the column of the round it stopped in.
// The loop has two breaks. Past the row's end a thread stops without a
// column to write; in the last round it stops with the column it holds.
// Either way the column after the loop is the exit round's, r * blockDim.x
// + threadIdx.x, distinct for every thread of a block, and each block owns
// its own row.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void lastColumn(const float *in, float *out, int width, int rounds) {
  int tx = threadIdx.x;
  int col = tx;
  bool inside = false;
  float sum = 0.0f;
  for (int r = 0; r < rounds; ++r) {
    col = r * blockDim.x + tx;
    if (col >= width) {
      inside = false;
      break;
    }
    inside = true;
    sum += in[blockIdx.x * width + col];
    if (r == rounds - 1)
      break;
  }
  if (inside)
    out[blockIdx.x * width + col] = sum;
}

int main() {
  const int rows = 64, width = 1000, threads = 128;
  const int rounds = (width + threads - 1) / threads;
  float *in, *out;
  cudaMalloc(&in, rows * width * sizeof(float));
  cudaMalloc(&out, rows * width * sizeof(float));
  cudaMemset(in, 0, rows * width * sizeof(float));
  lastColumn<<<rows, threads>>>(in, out, width, rounds);
  float first = 0;
  cudaMemcpy(&first, out, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", first);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
