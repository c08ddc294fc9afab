// category: template
// source: a tiled matrix product compiled for the driver API (matrixMulDrv's
// shape): no launch is visible
// The tiles are staged correctly, but the second barrier of the loop is
// missing: a thread that starts the next step overwrites its element of
// the shared tile while a slower thread of its block still reads the old
// one. The race holds in a launch whose blocks fit the tiles exactly.

template <int TILE>
__device__ void tiledProduct(float *out, const float *x, const float *y, int wx, int wy) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int first = wx * TILE * by;
  int last = first + wx - 1;
  float sum = 0;
  for (int i = first, j = TILE * bx; i <= last; i += TILE, j += TILE * wy) {
    __shared__ float xs[TILE][TILE];
    __shared__ float ys[TILE][TILE];
    xs[ty][tx] = x[i + wx * ty + tx]; // expect-race(x): intra-block
    ys[ty][tx] = y[j + wy * ty + tx]; // expect-race(y): intra-block
    __syncthreads();
    for (int k = 0; k < TILE; ++k) {
      float left = xs[ty][k]; // expect-race(x): intra-block
      float right = ys[k][tx]; // expect-race(y): intra-block
      sum += left * right;
    }
  }
  int corner = wy * TILE * by + TILE * bx;
  out[corner + wy * ty + tx] = sum;
}

extern "C" __global__ void product8(float *out, const float *x, const float *y, int wx, int wy) {
  tiledProduct<8>(out, x, y, wx, wy);
}
