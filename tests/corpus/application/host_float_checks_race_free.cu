// category: application
// expect: race-free
// source: the shape of benchmark programs that check results on the host
// A result check in the host code, a template over the element type that
// calls isfinite, isnan, isinf and signbit unqualified, with only <cmath>
// included: nvcc's headers declare them for the host in the global
// namespace, so the program compiles with nvcc. Each thread of the kernel
// writes its own element.
#include <cmath>
#include <cstdio>
#include <cstdlib>

__global__ void relu(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] > 0.0f ? in[i] : 0.0f;
}

template <class T>
int countMismatches(const T *got, const T *want, int n, T tolerance) {
  int faults = 0;
  for (int i = 0; i < n; ++i) {
    if (!isfinite(want[i]) || isnan(got[i]))
      continue;
    if (isinf(got[i]) || signbit(got[i]) != signbit(want[i]) ||
        std::fabs(got[i] - want[i]) > tolerance)
      ++faults;
  }
  return faults;
}

int main() {
  const int n = 1 << 14;
  float *in = (float *)malloc(n * sizeof(float));
  float *want = (float *)malloc(n * sizeof(float));
  float *got = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    in[i] = (float)(i % 7) - 3.0f;
    want[i] = in[i] > 0.0f ? in[i] : 0.0f;
  }
  float *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice);
  relu<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
  cudaMemcpy(got, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  double check[2] = {1.0, 2.0};
  int faults = countMismatches(got, want, n, 1e-6f) +
               countMismatches(check, check, 2, 0.0);
  printf("%s\n", faults ? "FAIL" : "PASS");
  cudaFree(d_in);
  cudaFree(d_out);
  free(in);
  free(want);
  free(got);
  return faults != 0;
}
