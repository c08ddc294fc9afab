// Each thread reads its right neighbour's element while the neighbour
// overwrites it: races inside a warp, between warps and between blocks.
__global__ void shift(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    a[i] = a[i + 1];
}
