// category: whole-program
// needs: host-facts
// expect: race-free
// with: parts/split_tiles_ok_main.cu
// source: multi-file applications whose kernels live in one .cu and are
// launched from another (built with -rdc=true)
//
// Each block scales its own tile of 128 elements. The tiles are disjoint only
// when blocks have at most 128 threads: the launch that guarantees it is in
// parts/split_tiles_ok_main.cu, a different translation unit.

__global__ void scale_tiles(float *data, float factor) {
  unsigned i = blockIdx.x * 128 + threadIdx.x;
  data[i] = data[i] * factor;
}
