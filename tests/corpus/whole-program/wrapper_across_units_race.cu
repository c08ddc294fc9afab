// category: whole-program
// with: parts/wrapper_across_units_race_main.cu
// source: libraries that wrap each launch in a host function of the kernel's file
//
// The same wrapper, called from another translation unit with one buffer
// as both input and output: thread i reads in[i + 1] while thread i + 1
// overwrites it.

__global__ void shiftCopyInPlace(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    out[i] = in[i + 1]; // expect-race(a): intra-warp
}

void launchShiftCopyInPlace(const float *in, float *out, int n) {
  shiftCopyInPlace<<<(n + 255) / 256, 256>>>(in, out, n);
}
