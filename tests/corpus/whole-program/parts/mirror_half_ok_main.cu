// The host side of ../mirror_half_ok.cu.
__global__ void mirror_half(int *buf, int n, int offset);

int main() {
  const int n = 1 << 12;
  int *buf;
  cudaMalloc(&buf, 2 * n * sizeof(int));
  mirror_half<<<n / 256, 256>>>(buf, n, n);
  cudaDeviceSynchronize();
  cudaFree(buf);
  return 0;
}
