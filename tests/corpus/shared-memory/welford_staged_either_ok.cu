// category: shared-memory
// expect: race-free
// source: row-wise mean/variance kernels of deep-learning libraries, whose block reduction stages one Welford struct per warp in raw shared storage and reads it back as `lane < warps ? staged[lane] : identity`
// rowMoments: each block reduces one row. Lane 0 of every warp stores its
// warp's partial into the staged slots; after the barrier, the first warp
// takes slot `lane` where it exists and the identity (a local) elsewhere.
// The read of the staging array happens only under the condition, after
// the barrier, and the identity is no memory at all.
#include <cstdio>
#include <cuda_runtime.h>
#include <type_traits>

struct Welford {
  float mean;
  float m2;
  int count;
};

__device__ Welford combine(Welford a, Welford b) {
  int count = a.count + b.count;
  if (count == 0)
    return a;
  float delta = b.mean - a.mean;
  float share = (float)b.count / count;
  return Welford{a.mean + delta * share, a.m2 + b.m2 + delta * delta * a.count * share, count};
}

__device__ Welford warpReduce(Welford v) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    Welford other{__shfl_down_sync(0xffffffffu, v.mean, offset),
                  __shfl_down_sync(0xffffffffu, v.m2, offset),
                  __shfl_down_sync(0xffffffffu, v.count, offset)};
    v = combine(v, other);
  }
  return v;
}

__device__ Welford blockReduce(Welford v, const Welford &identity, Welford *staged) {
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warpReduce(v);
  if (lane == 0)
    staged[warp] = v;
  __syncthreads();
  v = (threadIdx.x < blockDim.x / 32) ? staged[lane] : identity;
  if (warp == 0)
    v = warpReduce(v);
  return v;
}

__global__ void rowMoments(const float *x, int cols, float *mean, float *var) {
  __shared__ typename std::aligned_storage<sizeof(Welford), alignof(Welford)>::type raw[32];
  Welford *staged = reinterpret_cast<Welford *>(raw);
  Welford v{0.f, 0.f, 0};
  for (int j = threadIdx.x; j < cols; j += blockDim.x)
    v = combine(v, Welford{x[blockIdx.x * cols + j], 0.f, 1});
  v = blockReduce(v, Welford{0.f, 0.f, 0}, staged);
  if (threadIdx.x == 0) {
    mean[blockIdx.x] = v.mean;
    var[blockIdx.x] = v.count > 0 ? v.m2 / v.count : 0.f;
  }
}

int main() {
  const int rows = 128, cols = 4096;
  float *x, *mean, *var;
  cudaMalloc(&x, rows * cols * sizeof(float));
  cudaMalloc(&mean, rows * sizeof(float));
  cudaMalloc(&var, rows * sizeof(float));
  cudaMemset(x, 0, rows * cols * sizeof(float));
  rowMoments<<<rows, 512>>>(x, cols, mean, var);
  float first = 0;
  cudaMemcpy(&first, mean, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", first);
  cudaFree(x);
  cudaFree(mean);
  cudaFree(var);
  return 0;
}
