// Volatile data, for the instrumenter tests: every thread stores one
// volatile word (a race, as volatile orders nothing) and reads it back.
__global__ void publish(volatile int *flag, int *out) {
  flag[0] = threadIdx.x;
  out[threadIdx.x] = flag[0];
}

int main() {
  int *flag, *out;
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&out, 64 * sizeof(int));
  publish<<<1, 64>>>(flag, out);
  cudaDeviceSynchronize();
  return 0;
}
