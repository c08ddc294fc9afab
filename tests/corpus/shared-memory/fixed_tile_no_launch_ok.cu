// category: shared-memory
// source: tiled matrix product kernels with extern "C" entry points for the
// driver API (matrixMulDrv shape): no launch is visible in the program
// expect: race-free
// Each thread stores one element of each 16 x 16 tile, at [ty][tx]. No
// launch shows the block's shape, but the tile's sides bound it: a thread
// with tx or ty past 15 would store outside the tile, not into another
// thread's element. The second barrier keeps the next step's stores after
// every thread's reads of this step.
#define SIDE 16

template <int side>
__device__ void tiledProduct(float *c, const float *a, const float *b, int width) {
  __shared__ float a_tile[side][side];
  __shared__ float b_tile[side][side];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * side + ty, col = blockIdx.x * side + tx;
  float sum = 0;
  for (int step = 0; step < width / side; ++step) {
    a_tile[ty][tx] = a[row * width + step * side + tx];
    b_tile[ty][tx] = b[(step * side + ty) * width + col];
    __syncthreads();
    for (int k = 0; k < side; ++k)
      sum += a_tile[ty][k] * b_tile[k][tx];
    __syncthreads();
  }
  c[((blockIdx.y * gridDim.x + blockIdx.x) * blockDim.y + ty) * blockDim.x + tx] = sum;
}

extern "C" __global__ void tiledProduct16(float *c, const float *a, const float *b,
                                          int width) {
  tiledProduct<SIDE>(c, a, b, width);
}
