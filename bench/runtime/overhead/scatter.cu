// The agent's cost per launch: a scatter through an index array that the
// static analysis cannot see, so its store is a planned site (a race with
// itself in other threads).
//
//   scatter BLOCKS REPEATS [collide]
//
// Launches `scatter` REPEATS times with BLOCKS blocks of 256 threads and
// prints the median wall time of one launch (launch + synchronize) in
// microseconds. The index array is a permutation (no race: the runtime
// records every access and confirms nothing) unless `collide` is given,
// when every pair of threads stores to one element (a race per pair).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

__global__ void scatter(const int *in, const int *index, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[index[i]] = in[i];
}

static bool check(cudaError_t error, const char *what) {
  if (error == cudaSuccess)
    return true;
  std::fprintf(stderr, "scatter: %s: %s\n", what, cudaGetErrorString(error));
  return false;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: scatter BLOCKS REPEATS [collide]\n");
    return 1;
  }
  const int threads = 256;
  int blocks = std::atoi(argv[1]);
  int repeats = std::atoi(argv[2]);
  bool collide = argc > 3 && std::strcmp(argv[3], "collide") == 0;
  if (blocks <= 0 || repeats <= 0) {
    std::fprintf(stderr, "scatter: BLOCKS and REPEATS must be positive\n");
    return 1;
  }
  int n = blocks * threads;
  // A stride coprime to n permutes [0, n); halving it makes pairs collide.
  // Each thread stores its own number, so colliding stores differ (two
  // stores of one value would be benign).
  std::vector<int> host_index(n), host_in(n);
  for (int i = 0; i < n; ++i) {
    host_index[i] = collide ? i / 2 : static_cast<int>((static_cast<long long>(i) * 7919) % n);
    host_in[i] = i;
  }

  int *in = nullptr, *index = nullptr, *out = nullptr;
  size_t bytes = n * sizeof(int);
  if (!check(cudaMalloc(&in, bytes), "cudaMalloc") ||
      !check(cudaMalloc(&index, bytes), "cudaMalloc") ||
      !check(cudaMalloc(&out, bytes), "cudaMalloc"))
    return 1;
  cudaMemcpy(in, host_in.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(index, host_index.data(), bytes, cudaMemcpyHostToDevice);

  std::vector<double> micros;
  for (int r = 0; r < repeats; ++r) {
    auto start = std::chrono::steady_clock::now();
    scatter<<<blocks, threads>>>(in, index, out, n);
    if (!check(cudaDeviceSynchronize(), "launch"))
      return 1;
    auto end = std::chrono::steady_clock::now();
    micros.push_back(std::chrono::duration<double, std::micro>(end - start).count());
  }
  std::sort(micros.begin(), micros.end());
  std::printf("%.1f\n", micros[micros.size() / 2]);
  cudaFree(in);
  cudaFree(index);
  cudaFree(out);
  return 0;
}
