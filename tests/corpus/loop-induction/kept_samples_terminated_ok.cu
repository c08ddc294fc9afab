// category: loop-induction
// expect: race-free
// source: per-thread stream compaction in signal and event processing: each thread filters its own record's samples into its own output slots and closes them with a terminator
// keepLoud: thread t reads the first len samples of record t (len from the
// record's header, at most kCap) and copies those above a threshold to its
// own kCap + 1 output slots. The count n is stepped only where a sample is
// kept, at most once per iteration, so in iteration i it is at most i, and
// the terminator after the loop lands at n <= len <= kCap: the last of the
// thread's own slots. The loop's bound is the thread's own len, so threads
// leave it in different iterations, each where its own test fails.
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
      slots[n++] = record[i];
  slots[n] = 0.0f;
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
