// The host side of ../wrapper_across_units_ok.cu: it calls the wrapper.
void launchShiftCopy(const float *in, float *out, int n);

int main() {
  const int n = 1 << 16;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  launchShiftCopy(in, out, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}
