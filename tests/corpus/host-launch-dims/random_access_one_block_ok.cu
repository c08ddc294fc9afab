// category: host-launch-dims
// expect: race-free
// needs: host-facts
// source: HPCC RandomAccess (HGRD Table 3 "randomAccess")
// The table-initialization kernel indexes by threadIdx only, which is safe
// because the host launches it with a single block covering the table.
#include <cstdio>
#include <cuda_runtime.h>

#define TABLE 1024

__global__ void initTable(unsigned long long *table) {
  for (int i = threadIdx.x; i < TABLE; i += blockDim.x)
    table[i] = i;
}

__global__ void update(unsigned long long *table, const unsigned long long *ran,
                       int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicXor(&table[ran[i] % TABLE], ran[i]);
}

int main() {
  const int n = 4096;
  unsigned long long *table, *ran;
  cudaMalloc(&table, TABLE * sizeof(unsigned long long));
  cudaMalloc(&ran, n * sizeof(unsigned long long));
  cudaMemset(ran, 0, n * sizeof(unsigned long long));
  initTable<<<1, 256>>>(table);
  update<<<n / 256, 256>>>(table, ran, n);
  cudaDeviceSynchronize();
  cudaFree(table);
  cudaFree(ran);
  printf("done\n");
  return 0;
}
