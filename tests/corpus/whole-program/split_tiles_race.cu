// category: whole-program
// with: parts/split_tiles_race_main.cu
// source: multi-file applications whose kernels live in one .cu and are
// launched from another (built with -rdc=true)
//
// The same tile kernel, launched from another file with 256 threads per
// block: block b's upper half overlaps block b+1's tile.

__global__ void scale_tiles_wide(float *data, float factor) {
  unsigned i = blockIdx.x * 128 + threadIdx.x;
  data[i] = data[i] * factor; // expect-race(overlap): inter-block
}
