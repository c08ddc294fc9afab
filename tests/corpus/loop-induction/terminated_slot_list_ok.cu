// category: loop-induction
// expect: race-free
// needs: host-facts
// source: per-thread fixed-capacity output lists (neighbour lists, candidate lists) closed by a terminator after the last entry
// gather: thread t owns slots [t * slots, (t + 1) * slots). It copies at
// most slots - 1 items, stepping its cursor j right after each store and
// breaking once the list is one short of full; the terminator then goes to
// slot j, at most the last of its own. Two facts decide it: no iteration
// runs past the one whose test `i == slots - 2` breaks, and after a break
// that follows the step, j is one step past the break's iteration.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void gather(const int *items, int *lists, int slots, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int j = t * slots;
  for (int i = 0; i < n; ++i) {
    lists[j] = items[i] + t;
    j++;
    if (i == slots - 2) break;
  }
  lists[j] = -1;
}

int main() {
  const int threads = 256, slots = 8, n = 16;
  int *items, *lists;
  cudaMalloc(&items, n * sizeof(int));
  cudaMalloc(&lists, threads * slots * sizeof(int));
  cudaMemset(items, 0, n * sizeof(int));
  gather<<<threads / 64, 64>>>(items, lists, slots, n);
  int first = 0;
  cudaMemcpy(&first, lists, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", first);
  cudaFree(items);
  cudaFree(lists);
  return 0;
}
