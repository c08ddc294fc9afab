// category: loop-induction
// expect: race-free
// source: merge passes of GPU merge sorts: each thread merges two sorted runs into its own output window through a cursor it increments inside the subscript
// mergeRuns: thread t merges in[t * 2 * run ..] (two runs of `run` keys)
// into out[t * 2 * run ..]. The output cursor n steps once per iteration,
// inside the store's subscript (`dst[n++]`), so in iteration k it is k; the
// loop leaves by its break once 2 * run keys are out, so every store stays
// in the thread's own window. Which run a key comes from is data (`ia++`
// and `ib++` sit in the branches of a conditional, so they are not steps).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void mergeRuns(const float *in, float *out, int run) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float *a = in + t * 2 * run;
  const float *b = a + run;
  float *dst = out + t * 2 * run;
  int ia = 0, ib = 0, n = 0;
  while (true) {
    bool take_a = ib >= run || (ia < run && a[ia] <= b[ib]);
    dst[n++] = take_a ? a[ia++] : b[ib++];
    if (n == 2 * run) break;
  }
}

int main() {
  const int run = 4, threads = 256;
  const size_t bytes = threads * 2 * run * sizeof(float);
  float *in, *out;
  cudaMalloc(&in, bytes);
  cudaMalloc(&out, bytes);
  cudaMemset(in, 0, bytes);
  mergeRuns<<<threads / 128, 128>>>(in, out, run);
  float first = 0;
  cudaMemcpy(&first, out, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", first);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
