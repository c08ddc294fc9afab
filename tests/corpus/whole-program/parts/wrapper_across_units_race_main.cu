// The host side of ../wrapper_across_units_race.cu: it calls the wrapper
// with the same buffer twice.
void launchShiftCopyInPlace(const float *in, float *out, int n);

int main() {
  const int n = 1 << 16;
  float *data;
  cudaMalloc(&data, n * sizeof(float));
  cudaMemset(data, 0, n * sizeof(float));
  launchShiftCopyInPlace(data, data, n);
  cudaDeviceSynchronize();
  cudaFree(data);
  return 0;
}
