// A racy shift and a lock-protected counter, for the instrumenter tests.
struct Pair {
  int x;
  int y;
};

__device__ int sumOf(const Pair *p) { return p->x + p->y; }

__global__ void shift(int *a, Pair *pairs, int *lock, int *total, int n) {
  __shared__ int tile[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = a[i];
  __syncthreads();
  if (i + 1 < n)
    a[i] = a[i + 1];
  a[i] += tile[(threadIdx.x + 1) % 64];
  pairs[i].x++;
  *total += sumOf(&pairs[i]);
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  __threadfence();
  total[1] = total[1] + 1;
  __threadfence_block();
  atomicExch_block(lock, 0);
  __syncwarp();
  __syncwarp(0x0000ffffu);
}

int main() { return 0; }
