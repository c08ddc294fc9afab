// category: whole-program
// needs: host-facts
// expect: race-free
// with: parts/mirror_half_ok_main.cu
// source: kernels declared in a shared header and launched by another file
//
// Every thread copies one element of the lower half into the upper half.
// The halves are disjoint only because the launching file, another
// translation unit, passes an offset of at least n.

__global__ void mirror_half(int *buf, int n, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    buf[i + offset] = buf[i];
}
