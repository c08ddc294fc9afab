// A store of a host constant, for the instrumenter tests: nvcc lets device
// code use a constexpr host variable's value but not its address, so the
// instrumented store must take the value, not a reference to it.
constexpr int kLimit = 256;

__global__ void clamp(int *width) {
  if (width[0] > kLimit)
    width[0] = kLimit;
}

int main() {
  int *width;
  cudaMalloc(&width, sizeof(int));
  clamp<<<1, 64>>>(width);
  cudaDeviceSynchronize();
  return 0;
}
