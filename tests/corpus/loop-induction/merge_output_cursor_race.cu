// category: loop-induction
// source: merge passes of GPU merge sorts: each thread merges two sorted runs into its own output window through a cursor it increments inside the subscript
// mergeRuns: as merge_output_cursor_ok, but the loop breaks one key late
// (n == 2 * run + 1): the last store of thread t lands on the first
// element of thread t + 1's window, in the same warp.
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
    dst[n++] = take_a ? a[ia++] : b[ib++]; // expect-race(A): intra-warp
    if (n == 2 * run + 1) break;
  }
}

int main() {
  const int run = 4, threads = 256;
  const size_t bytes = (threads * 2 * run + 1) * sizeof(float);
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
