// category: loop-induction
// source: per-thread fixed-capacity output lists (neighbour lists, candidate lists) closed by a terminator after the last entry
// gather: as terminated_slot_list_ok, but the loop breaks only when the
// list is full (i == slots - 1): the terminator then lands on slot
// (t + 1) * slots, the first entry of the next thread's list.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void gather(const int *items, int *lists, int slots, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int j = t * slots;
  for (int i = 0; i < n; ++i) {
    lists[j] = items[i] + t; // expect-race(A): intra-warp
    j++;
    if (i == slots - 1) break;
  }
  lists[j] = -1; // expect-race(A): intra-warp
}

int main() {
  const int threads = 256, slots = 8, n = 16;
  int *items, *lists;
  cudaMalloc(&items, n * sizeof(int));
  cudaMalloc(&lists, (threads * slots + 1) * sizeof(int));
  cudaMemset(items, 0, n * sizeof(int));
  gather<<<threads / 64, 64>>>(items, lists, slots, n);
  int first = 0;
  cudaMemcpy(&first, lists, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", first);
  cudaFree(items);
  cudaFree(lists);
  return 0;
}
