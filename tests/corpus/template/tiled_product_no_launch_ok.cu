// category: template
// source: a tiled matrix product compiled for the driver API, one extern "C"
// entry point per tile size (matrixMulDrv's shape): no launch is visible
// expect: race-free
// Each block computes one TILE x TILE square of the output, staging tiles of
// both inputs in shared memory, and each thread writes its own element of
// the square. The kernel relies on a block of exactly TILE x TILE threads:
// a wider block would index the shared tiles past their sides, and its
// extra columns would run into the next block's square. With no launch in
// view the solver may pick such a block (and a width smaller than the
// square, whose columns run into the next row); those races are ranked
// below the threshold as ones a launch that fits the tiles never has.

template <int TILE, typename Index>
__device__ void tiledProduct(float *out, const float *x, const float *y, Index wx, Index wy) {
  Index bx = blockIdx.x, by = blockIdx.y;
  Index tx = threadIdx.x, ty = threadIdx.y;
  Index first = wx * TILE * by;
  Index last = first + wx - 1;
  float sum = 0;
  for (Index i = first, j = TILE * bx; i <= last; i += TILE, j += TILE * wy) {
    __shared__ float xs[TILE][TILE];
    __shared__ float ys[TILE][TILE];
    xs[ty][tx] = x[i + wx * ty + tx];
    ys[ty][tx] = y[j + wy * ty + tx];
    __syncthreads();
    for (Index k = 0; k < TILE; ++k)
      sum += xs[ty][k] * ys[k][tx];
    __syncthreads();
  }
  Index corner = wy * TILE * by + TILE * bx;
  out[corner + wy * ty + tx] = sum;
}

extern "C" __global__ void product8(float *out, const float *x, const float *y, int wx, int wy) {
  tiledProduct<8, int>(out, x, y, wx, wy);
}

extern "C" __global__ void product16Wide(float *out, const float *x, const float *y, size_t wx,
                                        size_t wy) {
  tiledProduct<16, size_t>(out, x, y, wx, wy);
}
