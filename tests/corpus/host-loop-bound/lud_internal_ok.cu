// category: host-loop-bound
// expect: race-free
// needs: host-facts
// source: Rodinia lud (lud_internal, HGRD Fig. 4)
// The offset parameter comes from the host loop over diagonal blocks; its
// bounds (0 <= offset < dim - BS, a multiple of BS) and the grid derived from
// it keep every block's tile inside the matrix and apart from the others.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BS 16

__global__ void ludInternal(float *m, int dim, int offset) {
  int rid = offset + (blockIdx.y + 1) * BS;
  int cid = offset + (blockIdx.x + 1) * BS;
  float sum = 0.0f;
  for (int k = 0; k < BS; ++k)
    sum += m[(rid + threadIdx.y) * dim + offset + k] *
           m[(offset + k) * dim + cid + threadIdx.x];
  m[(rid + threadIdx.y) * dim + cid + threadIdx.x] -= sum;
}

void lud(float *m, int hMatrixDim) {
  for (int hOffset = 0; hOffset < hMatrixDim - BS; hOffset += BS) {
    int rest = (hMatrixDim - hOffset) / BS - 1;
    dim3 grid(rest, rest);
    dim3 block(BS, BS);
    ludInternal<<<grid, block>>>(m, hMatrixDim, hOffset);
  }
}

int main(int argc, char **argv) {
  int dim = argc > 1 ? atoi(argv[1]) : 512;
  if (dim <= 0 || dim % BS != 0) {
    fprintf(stderr, "dimension must be a positive multiple of %d\n", BS);
    return 1;
  }
  float *m;
  cudaMalloc(&m, (size_t)dim * dim * sizeof(float));
  cudaMemset(m, 0, (size_t)dim * dim * sizeof(float));
  lud(m, dim);
  cudaDeviceSynchronize();
  cudaFree(m);
  printf("done\n");
  return 0;
}
