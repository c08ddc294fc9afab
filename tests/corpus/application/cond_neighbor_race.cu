// category: application
// source: Indigo condNeighbor (HGRD Table 3)
// Label propagation over an edge list: each thread lowers the label of its
// edge's destination to the source's label with a plain compare-and-store.
// Edges sharing a vertex update and read the same label.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

__global__ void propagate(const int *src, const int *dst, int edges,
                          int *label) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= edges)
    return;
  int u = src[e], v = dst[e];
  if (label[u] < label[v]) label[v] = label[u]; // expect-race(a): inter-block
}

int main() {
  const int vertices = 1000, edges = 5000;
  std::vector<int> hs(edges), hd(edges), hl(vertices);
  for (int e = 0; e < edges; ++e) {
    hs[e] = rand() % vertices;
    hd[e] = rand() % vertices;
  }
  for (int v = 0; v < vertices; ++v)
    hl[v] = v;
  int *src, *dst, *label;
  cudaMalloc(&src, edges * sizeof(int));
  cudaMalloc(&dst, edges * sizeof(int));
  cudaMalloc(&label, vertices * sizeof(int));
  cudaMemcpy(src, hs.data(), edges * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dst, hd.data(), edges * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(label, hl.data(), vertices * sizeof(int), cudaMemcpyHostToDevice);
  propagate<<<(edges + 255) / 256, 256>>>(src, dst, edges, label);
  cudaDeviceSynchronize();
  cudaFree(src);
  cudaFree(dst);
  cudaFree(label);
  printf("done\n");
  return 0;
}
