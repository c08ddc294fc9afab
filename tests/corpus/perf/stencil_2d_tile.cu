// category: perf
// expect: race-free
// needs: host-facts
// source: 2D five-point stencils that stage a block's tile in shared memory
// 16x16 blocks: a warp is two rows of 16 threads. In a tile row of 18
// words, the second row's last two lanes land in the banks of the first
// row's first two: a 2-way conflict, under the default threshold outside a
// loop. Each row of a warp reads 64 contiguous bytes of the image: 4
// sectors for the warp's 32 floats.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kSide = 16;

__global__ void laplacian(const float *in, float *out, int width, int height) {
  __shared__ float tile[kSide + 2][kSide + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * kSide + tx, y = blockIdx.y * kSide + ty;
  tile[ty + 1][tx + 1] = in[y * width + x]; // expect-perf: banks 2, sectors 4/4
  if (tx == 0)
    tile[ty + 1][0] = x > 0 ? in[y * width + x - 1] : 0.0f;
  if (tx == kSide - 1)
    tile[ty + 1][kSide + 1] = x + 1 < width ? in[y * width + x + 1] : 0.0f;
  if (ty == 0)
    tile[0][tx + 1] = y > 0 ? in[(y - 1) * width + x] : 0.0f;
  if (ty == kSide - 1)
    tile[kSide + 1][tx + 1] = y + 1 < height ? in[(y + 1) * width + x] : 0.0f;
  __syncthreads();
  float centre = tile[ty + 1][tx + 1]; // expect-perf: banks 2
  out[y * width + x] = tile[ty + 1][tx] + tile[ty + 1][tx + 2] + tile[ty][tx + 1] +
                       tile[ty + 2][tx + 1] - 4.0f * centre;
}

int main() {
  const int width = 1024, height = 768;
  float *in, *out;
  cudaMalloc(&in, width * height * sizeof(float));
  cudaMalloc(&out, width * height * sizeof(float));
  cudaMemset(in, 0, width * height * sizeof(float));
  dim3 block(kSide, kSide);
  dim3 grid(width / kSide, height / kSide);
  laplacian<<<grid, block>>>(in, out, width, height);
  cudaDeviceSynchronize();
  printf("stencil on %dx%d\n", width, height);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
