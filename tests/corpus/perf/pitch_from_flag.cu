// category: perf
// expect: race-free
// needs: host-facts
// source: shared-memory staging buffers whose row pitch is a run-time option, as in tiled matrix codes that pad on request
// The pitch of the staged rows is 32 words, or 33 with --pad. Writing a row
// (word c * pitch + t) puts the lanes in 32 consecutive banks for any
// pitch. Reading a column (word t * pitch + c) puts every lane in bank c
// when the pitch is 32, a 32-way conflict, and each lane in its own bank
// when it is 33: the finding says which pitch is free. The gather of every
// pitch-th float is uncoalesced for both pitches the host allows.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void columnSums(const float *rows, float *sums, int pitch) {
  extern __shared__ float staged[];
  for (int c = 0; c < 32; ++c)
    staged[c * pitch + threadIdx.x] = rows[blockIdx.x * 1024 + c * 32 + threadIdx.x]; // expect-perf: banks 1, sectors 4/4
  __syncthreads();
  float sum = 0;
  for (int c = 0; c < 32; ++c)
    sum += staged[threadIdx.x * pitch + c]; // expect-perf: banks 32 free-when pitch = 33
  sums[blockIdx.x * 32 + threadIdx.x] = sum; // expect-perf: sectors 4/4
}

__global__ void gatherEvery(const float *in, float *out, int pitch) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i * pitch]; // expect-perf: sectors 32/4
  out[i] = x; // expect-perf: sectors 4/4
}

int main(int argc, char **argv) {
  bool pad = argc > 1 && strcmp(argv[1], "--pad") == 0;
  int pitch = pad ? 33 : 32;
  const int blocks = 64;
  float *rows, *sums;
  cudaMalloc(&rows, blocks * 1024 * sizeof(float) * 33);
  cudaMalloc(&sums, blocks * 32 * sizeof(float));
  columnSums<<<blocks, 32, 32 * pitch * sizeof(float)>>>(rows, sums, pitch);
  gatherEvery<<<blocks, 32>>>(rows, sums, pitch);
  cudaDeviceSynchronize();
  printf("pitch %d\n", pitch);
  cudaFree(rows);
  cudaFree(sums);
  return 0;
}
