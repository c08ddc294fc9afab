// category: global-memory
// A jagged matrix reached through a table of row pointers: two blocks are
// given each row, and both write all of it, each its own block number.
#include <cstdio>
#include <cuda_runtime.h>

#define ROWS 8
#define COLS 256

__global__ void zeroRows(float **rows) {
  float *row = rows[blockIdx.x / 2];
  row[threadIdx.x] = blockIdx.x; // expect-race(a): inter-block
}

int main() {
  float *storage, **rows, *host_rows[ROWS];
  cudaMalloc(&storage, ROWS * COLS * sizeof(float));
  for (int r = 0; r < ROWS; ++r)
    host_rows[r] = storage + r * COLS;
  cudaMalloc(&rows, sizeof(host_rows));
  cudaMemcpy(rows, host_rows, sizeof(host_rows), cudaMemcpyHostToDevice);
  zeroRows<<<2 * ROWS, COLS>>>(rows);
  cudaDeviceSynchronize();
  cudaFree(rows);
  cudaFree(storage);
  printf("done\n");
  return 0;
}
