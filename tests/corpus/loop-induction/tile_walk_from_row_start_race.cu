// category: loop-induction
// source: tiled matrix products whose tile loop walks two indices from a
// start the block's row gives (matrixMul-style `a = aBegin; a <= aEnd;
// a += aStep`), with extern "C" entry points and no launch in the program;
// here the first tile's column is folded to half the side
// The loop's bounds are products of a parameter and the block's row, as in
// the race-free twin. `tx & 7` gives lanes tx and tx + 8 of one warp the
// same element of the first tile: both store it in the same step.
#define SIDE 16

template <int side>
__device__ void walkTiles(float *c, const float *a, const float *b, int width, int height) {
  __shared__ float a_tile[side][side];
  __shared__ float b_tile[side][side];
  int tx = threadIdx.x, ty = threadIdx.y;
  int first = width * side * blockIdx.y;
  int last = first + width - 1;
  int b_start = side * blockIdx.x;
  float sum = 0;
  for (int ai = first, bi = b_start; ai <= last; ai += side, bi += side * height) {
    a_tile[ty][tx & 7] = a[ai + width * ty + tx]; // expect-race(fold): intra-warp
    b_tile[ty][tx] = b[bi + height * ty + tx];
    __syncthreads();
    for (int k = 0; k < side; ++k)
      sum += a_tile[ty][k] * b_tile[k][tx];
    __syncthreads();
  }
  int block = blockIdx.y * gridDim.x + blockIdx.x;
  c[(block * blockDim.y + ty) * blockDim.x + tx] = sum;
}

extern "C" __global__ void walkTiles16(float *c, const float *a, const float *b, int width,
                                       int height) {
  walkTiles<SIDE>(c, a, b, width, height);
}
