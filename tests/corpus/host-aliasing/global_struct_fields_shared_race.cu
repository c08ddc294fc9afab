// category: host-aliasing
// needs: host-facts
// source: correlation and n-body codes that keep their device coordinates in a file-scope struct, allocated field by field in a setup function and passed whole to every launch
// pairCount: as global_struct_fields_allocated_ok, but the setup saves an
// allocation by storing the norms over the `z` coordinates (set once the
// points are taken to lie in a plane): thread i stores norm[i] while the
// other threads of its warp read it as their tile's p.z[j].
#include <cstdio>
#include <cuda_runtime.h>

struct Coords {
  double *x;
  double *y;
  double *z;
  double *norm;
};

Coords d_points;
unsigned *d_rows;

constexpr int kPoints = 4096;
constexpr int kBins = 32;

__global__ void pairCount(Coords p, unsigned *rows) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kPoints)
    return;
  double xi = p.x[i], yi = p.y[i], zi = p.z[i];
  p.norm[i] = xi * xi + yi * yi + zi * zi; // expect-race(A): intra-warp
  unsigned *row = rows + i * kBins;
  for (int j = blockIdx.x * blockDim.x; j < blockIdx.x * blockDim.x + blockDim.x; ++j) {
    double dot = xi * p.x[j] + yi * p.y[j] + zi * p.z[j]; // expect-race(A): intra-warp
    int bin = dot < -1.0 ? 0 : dot >= 1.0 ? kBins - 1 : (int)((dot + 1.0) * 0.5 * kBins);
    row[bin] += 1;
  }
}

void setupDevice() {
  cudaMalloc((void **)&d_points.x, kPoints * sizeof(double));
  cudaMalloc((void **)&d_points.y, kPoints * sizeof(double));
  cudaMalloc((void **)&d_points.z, kPoints * sizeof(double));
  d_points.norm = d_points.z;
  cudaMalloc((void **)&d_rows, kPoints * kBins * sizeof(unsigned));
}

void count(const double *hx, const double *hy, const double *hz) {
  cudaMemcpy(d_points.x, hx, kPoints * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(d_points.y, hy, kPoints * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(d_points.z, hz, kPoints * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(d_rows, 0, kPoints * kBins * sizeof(unsigned));
  pairCount<<<kPoints / 128, 128>>>(d_points, d_rows);
}

int main() {
  static double hx[kPoints], hy[kPoints], hz[kPoints];
  for (int i = 0; i < kPoints; ++i) {
    hx[i] = (i % 7) / 7.0;
    hy[i] = (i % 5) / 5.0;
    hz[i] = (i % 3) / 3.0;
  }
  setupDevice();
  count(hx, hy, hz);
  unsigned first = 0;
  cudaMemcpy(&first, d_rows, sizeof(unsigned), cudaMemcpyDeviceToHost);
  printf("%u\n", first);
  cudaFree(d_points.x);
  cudaFree(d_points.y);
  cudaFree(d_points.z);
  cudaFree(d_rows);
  return 0;
}
