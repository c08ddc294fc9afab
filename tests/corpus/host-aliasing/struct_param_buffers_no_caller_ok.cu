// category: host-aliasing
// expect: race-free
// needs: host-facts
// source: solvers that keep their device buffers in a result struct passed
// by reference to a launch function of another file
// `launchBounds(Intervals &result, int n)` has no caller in this file: the
// struct comes from elsewhere, so where its pointer fields point is not
// visible. Its fields are taken as separate buffers, as the pointer
// parameters of such a wrapper are (the result states the assumption):
// thread t writes element t of each output, and no two threads meet.
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
  float d = diagonal[t];
  left[t] = d - 1.0f;
  right[t] = d + 1.0f;
  left_count[t] = 0;
  right_count[t] = t;
}

void launchBounds(const float *diagonal, Intervals &result, int n) {
  bisectBounds<<<1, 512>>>(diagonal, result.left, result.right, result.left_count,
                           result.right_count, n);
}
