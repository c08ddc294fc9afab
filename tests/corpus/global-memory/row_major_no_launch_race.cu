// category: global-memory
// source: an in-place horizontal smoothing pass with an extern "C" entry
// point for the driver API: no launch is visible
// Every column stays within its row, and still each thread reads the
// element its right-hand neighbour overwrites, with nothing ordering the
// two: the race holds in a launch with exactly one thread per element.

extern "C" __global__ void smoothRows(float *image, int width) {
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int y = blockIdx.y;
  if (x + 1 < width)
    image[y * width + x] = 0.5f * (image[y * width + x] + image[y * width + x + 1]); // expect-race(a): intra-warp
}
