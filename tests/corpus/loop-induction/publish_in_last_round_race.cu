// category: loop-induction
// source: iterative solvers that run a fixed number of relaxation rounds and publish each thread's value in the round that ends the loop
// relax: as publish_in_last_round_ok, but every thread publishes into the
// one word result[0] in the round it breaks in. All threads reach that
// round (its test is the same for all), so the stores race; they are in
// the iteration that leaves the loop, which must count as run.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void relax(const float *v, float *result, int rounds) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float x = 0.0f;
  int round = 0;
  while (true) {
    x = 0.5f * x + v[t];
    if (round == rounds - 1) {
      result[0] = x; // expect-race(A): intra-warp
      break;
    }
    ++round;
  }
}

int main() {
  const int n = 1024;
  float *v, *result;
  cudaMalloc(&v, n * sizeof(float));
  cudaMalloc(&result, sizeof(float));
  cudaMemset(v, 0, n * sizeof(float));
  relax<<<n / 256, 256>>>(v, result, 8);
  float first = 0;
  cudaMemcpy(&first, result, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", first);
  cudaFree(v);
  cudaFree(result);
  return 0;
}
