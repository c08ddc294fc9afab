// category: loop-induction
// needs: host-facts
// source: per-thread stream compaction in signal and event processing: each thread filters its own record's samples into its own output slots and closes them with a terminator
// keepLoud: as kept_samples_terminated_ok, but the terminator goes one slot
// past the count (slots[n + 1]): a thread that keeps all kCap samples writes
// it on the next thread's first slot, which that thread fills with its
// first kept sample, in the same warp.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kCap = 32;

__global__ void keepLoud(const float *samples, const int *lengths, float *kept, int *counts,
                         float threshold) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float *record = samples + t * kCap;
  float *slots = kept + t * (kCap + 1);
  int len = min(lengths[t], kCap);
  int n = 0;
  for (int i = 0; i < len; ++i)
    if (fabsf(record[i]) > threshold)
      slots[n++] = record[i]; // expect-race(A): intra-warp
  slots[n + 1] = 0.0f; // expect-race(A): intra-warp
  counts[t] = n;
}

int main() {
  const int records = 256;
  float *samples, *kept;
  int *lengths, *counts;
  cudaMalloc(&samples, records * kCap * sizeof(float));
  cudaMalloc(&kept, records * (kCap + 1) * sizeof(float));
  cudaMalloc(&lengths, records * sizeof(int));
  cudaMalloc(&counts, records * sizeof(int));
  cudaMemset(samples, 0, records * kCap * sizeof(float));
  cudaMemset(lengths, 0, records * sizeof(int));
  keepLoud<<<records / 64, 64>>>(samples, lengths, kept, counts, 0.5f);
  int first = 0;
  cudaMemcpy(&first, counts, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", first);
  cudaFree(samples);
  cudaFree(kept);
  cudaFree(lengths);
  cudaFree(counts);
  return 0;
}
