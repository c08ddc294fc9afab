// Launches one test kernel on the CPU harness and writes its trace. Built
// with -DDRIVE_SHIFT or -DDRIVE_TILED next to that kernel's instrumented file.
#include <vector>

extern "C" gpurace::rt::RecordBufferHeader *gpurace_record_buffer;

#ifdef DRIVE_SHIFT
__global__ void shift(int *a, int n);
#else
__global__ void tiled(const int *a, int *b);
#endif

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  gpurace_cpu::TraceBuffer buffer(4096);
  gpurace_record_buffer = buffer.header();
  std::vector<int> a(128, 1), b(128, 0);
  dim3 grid(2), block(64);
#ifdef DRIVE_SHIFT
  gpurace_cpu::launch(shift, grid, block, a.data(), 128);
#else
  gpurace_cpu::launch(tiled, grid, block, static_cast<const int *>(a.data()), b.data());
#endif
  return buffer.write(argv[1], grid, block) ? 0 : 1;
}
