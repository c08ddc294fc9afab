// Launches one test kernel on the CPU harness, as the instrumented host code
// of a whole program would. Built with -DDRIVE_SHIFT or -DDRIVE_TILED next
// to that kernel's instrumented file; the trace goes to GPURACE_TRACE_DIR.
#include <vector>

#ifdef DRIVE_SHIFT
__global__ void shift(int *a, int n);
#else
__global__ void tiled(const int *a, int *b);
#endif

int main() {
  std::vector<int> a(128, 1), b(128, 0);
#ifdef DRIVE_SHIFT
  gpurace_cpu::launcher(shift, "shift", 2, 64)(a.data(), 128);
#else
  gpurace_cpu::launcher(tiled, "tiled", 2, 64)(a.data(), b.data());
#endif
  return 0;
}
