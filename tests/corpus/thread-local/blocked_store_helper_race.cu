// category: thread-local
// source: the shape of block-wide load/store helpers modelled on CUB
// A helper class built inline for each store, `Storer(temp).Store(...)`:
// its constructor records the thread's rank in the block, and Store writes
// the thread's own run of ITEMS consecutive elements from that rank, up to
// the valid count of a partial last tile. The rank lives in the helper's
// field, set only by the constructor. Here the constructor rounds the rank
// down to even, so two neighbouring threads store the same run.
#include <cstdio>
#include <cuda_runtime.h>

template <typename T, int THREADS, int ITEMS> class BlockedStorer {
public:
  struct TempStorage {};

  __device__ explicit BlockedStorer(TempStorage &) : linear_tid(threadIdx.x & ~1) {}

  __device__ void Store(T *tile_out, const T (&items)[ITEMS], int valid) {
    T *mine = tile_out + linear_tid * ITEMS;
    for (int k = 0; k < ITEMS; ++k)
      if (linear_tid * ITEMS + k < valid)
        mine[k] = items[k]; // expect-race(RANK): intra-warp
  }

private:
  int linear_tid;
};

constexpr int kThreads = 128, kItems = 4, kTile = kThreads * kItems;

__global__ void quantize(const float *in, unsigned char *out, int n) {
  typedef BlockedStorer<unsigned char, kThreads, kItems> Storer;
  __shared__ typename Storer::TempStorage storage;
  for (int base = blockIdx.x * kTile; base < n; base += gridDim.x * kTile) {
    int valid = min(n - base, kTile);
    unsigned char codes[kItems];
    for (int k = 0; k < kItems; ++k) {
      int i = base + threadIdx.x * kItems + k;
      codes[k] = i < n ? (unsigned char)(in[i] * 255.0f) : 0;
    }
    Storer(storage).Store(out + base, codes, valid);
  }
}

int main() {
  const int n = 100000;
  float *in;
  unsigned char *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n);
  cudaMemset(in, 0, n * sizeof(float));
  quantize<<<64, kThreads>>>(in, out, n);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(in);
  cudaFree(out);
  return 0;
}
