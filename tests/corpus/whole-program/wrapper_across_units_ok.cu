// category: whole-program
// needs: host-facts
// expect: race-free
// with: parts/wrapper_across_units_ok_main.cu
// source: libraries that wrap each launch in a host function of the kernel's file
//
// The kernel's own file launches it from a wrapper whose pointers could be
// anything; the caller, in another translation unit, passes two separate
// allocations, so the shifted read never meets a write.

__global__ void shiftCopy(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    out[i] = in[i + 1];
}

void launchShiftCopy(const float *in, float *out, int n) {
  shiftCopy<<<(n + 255) / 256, 256>>>(in, out, n);
}
