// category: global-memory
// source: image kernels with extern "C" entry points for the driver API
// (simpleTextureDrv and box-filter column passes): no launch is visible
// expect: race-free
// Neither kernel checks its column against the width: each is launched
// with one thread per column, so `y * width + x` names a distinct element
// for each thread and row. With no launch in view the solver may pick a
// launch wider than the image, where a thread past the end of its row
// writes the next row's first elements; those races are ranked below the
// threshold as ones a launch that fits the data never has.

extern "C" __global__ void rotateImage(float *out, const float *in, int width, int height,
                                       float cosine, float sine) {
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  float u = (float)x - width / 2.0f, v = (float)y - height / 2.0f;
  int sx = (int)(u * cosine - v * sine + width / 2.0f);
  int sy = (int)(v * cosine + u * sine + height / 2.0f);
  float value = 0.0f;
  if (sx >= 0 && sx < width && sy >= 0 && sy < height)
    value = in[sy * width + sx];
  out[y * width + x] = value;
}

// A running sum down each column: row 0 first, then every row below it.
extern "C" __global__ void columnPrefix(float *out, const float *in, int width, int height) {
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = in[x];
  out[x] = sum;
  for (int y = 1; y < height; y++) {
    sum += in[y * width + x];
    out[y * width + x] = sum;
  }
}
