// category: host-values
// source: image loaders that return false on failure and set the size
// through references (optical flow, stereo samples)
// As loader_out_sizes_ok.cu, but the loader rounds the stride down to a
// multiple of 32: a 100-pixel row gets a stride of 96, so the last four
// pixels of row y are the first four of row y + 1.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void scaleRows(float *image, int width, int height, int stride, float by) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    image[y * stride + x] *= by; // expect-race(R1): inter-block
}

bool loadFrame(const char *name, float *&pixels, int &width, int &height, int &stride) {
  FILE *file = fopen(name, "rb");
  if (!file)
    return false;
  int header[2];
  if (fread(header, sizeof(int), 2, file) != 2 || header[0] <= 0 || header[1] <= 0) {
    fclose(file);
    return false;
  }
  width = header[0];
  height = header[1];
  stride = width / 32 * 32;
  pixels = new float[stride * height]();
  fclose(file);
  return true;
}

int main(int argc, char **argv) {
  float *pixels;
  int width, height, stride;
  if (!loadFrame(argc > 1 ? argv[1] : "frame.bin", pixels, width, height, stride)) {
    fprintf(stderr, "cannot read the frame\n");
    return EXIT_FAILURE;
  }
  float *d_image;
  cudaMalloc(&d_image, stride * height * sizeof(float));
  cudaMemcpy(d_image, pixels, stride * height * sizeof(float), cudaMemcpyHostToDevice);
  dim3 threads(32, 8);
  dim3 blocks((width + 31) / 32, (height + 7) / 8);
  scaleRows<<<blocks, threads>>>(d_image, width, height, stride, 0.5f);
  cudaDeviceSynchronize();
  cudaFree(d_image);
  delete[] pixels;
  printf("done\n");
  return 0;
}
