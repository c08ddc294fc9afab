// category: loop-induction
// expect: race-free
// source: iterative solvers that run a fixed number of relaxation rounds and publish each thread's value in the round that ends the loop
// relax: every thread leaves `while (true)` by its break in round
// `rounds`, storing its own result there: result[t] belongs to thread t.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void relax(const float *v, float *result, int rounds) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float x = 0.0f;
  int round = 0;
  while (true) {
    x = 0.5f * x + v[t];
    if (round == rounds - 1) {
      result[t] = x;
      break;
    }
    ++round;
  }
}

int main() {
  const int n = 1024;
  float *v, *result;
  cudaMalloc(&v, n * sizeof(float));
  cudaMalloc(&result, n * sizeof(float));
  cudaMemset(v, 0, n * sizeof(float));
  relax<<<n / 256, 256>>>(v, result, 8);
  float first = 0;
  cudaMemcpy(&first, result, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", first);
  cudaFree(v);
  cudaFree(result);
  return 0;
}
