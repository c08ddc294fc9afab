// category: shared-memory
// source: tiled matrix product kernels with extern "C" entry points for the
// driver API (matrixMulDrv shape), without the barrier that ends a step
// No launch is visible; the tile's sides bound the block's shape. Without
// the second barrier a fast thread stores the next step's tile element
// while a slower thread of its row still reads this step's.
#define SIDE 16

template <int side>
__device__ void tiledProduct(float *c, const float *a, const float *b, int width) {
  __shared__ float a_tile[side][side];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * side + ty;
  float sum = 0;
  for (int step = 0; step < width / side; ++step) {
    a_tile[ty][tx] = a[row * width + step * side + tx]; // expect-race(a): intra-block
    __syncthreads();
    for (int k = 0; k < side; ++k)
      sum += a_tile[ty][k] * b[(step * side + k) * width + blockIdx.x * side + tx]; // expect-race(a): intra-block
  }
  c[((blockIdx.y * gridDim.x + blockIdx.x) * blockDim.y + ty) * blockDim.x + tx] = sum;
}

extern "C" __global__ void tiledProduct16(float *c, const float *a, const float *b,
                                          int width) {
  tiledProduct<SIDE>(c, a, b, width);
}
