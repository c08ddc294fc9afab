// category: host-aliasing
// source: solvers that keep their device buffers in a result struct passed
// by reference to a launch function of another file
// As struct_param_buffers_no_caller_ok.cu, but the launch passes one field
// twice, as the output and, one element further on, as the input: thread
// t writes element t of 'left' and thread t - 1 reads it, in one warp.
#include <cuda_runtime.h>

struct Intervals {
  float *left;
  float *right;
  unsigned *left_count;
  unsigned *right_count;
};

__global__ void bisectBounds(const float *diagonal, float *left, float *right,
                             unsigned *left_count, unsigned *right_count, int n) {
  int t = threadIdx.x;
  if (t >= n)
    return;
  float d = diagonal[t]; // expect-race(a): intra-warp
  left[t] = d - 1.0f; // expect-race(a): intra-warp
  right[t] = d + 1.0f;
  left_count[t] = 0;
  right_count[t] = t;
}

void launchBounds(Intervals &result, int n) {
  bisectBounds<<<1, 512>>>(result.left + 1, result.left, result.right, result.left_count,
                           result.right_count, n);
}
