// `gpurace instrument --cpu-harness`: the host code of a CUDA program is
// rewritten for the CPU harness, on the same lines, and nothing else is.
#include "runtime/instrument/SourceRewriter.h"

#include <gtest/gtest.h>

#include <sstream>

namespace gpurace::rt {
namespace {

const char *kProgram = R"(template <class T> __global__ void fill(T *p, T v) { p[threadIdx.x] = v; }
__global__ void scale(float *x) {
  extern __shared__ float tile[];
  tile[threadIdx.x] = x[threadIdx.x];
}
int main() {
  float *x;
  cudaMalloc(&x, 256);
  fill<<<dim3(2), 32, 0, 0>>>(x, 1.0f);
  scale<<<1, 64, 64 * sizeof(float)>>>(x);
  void *args[] = {&x};
  cudaLaunchCooperativeKernel((void *)scale, 2, 32, args);
  return 0;
}
)";

std::string rewritten(bool cpu_harness) {
  RewriteRequest request;
  request.file = "program.cu";
  request.code = kProgram;
  request.runtime_header = "DeviceRuntime.cuh";
  request.cpu_harness = cpu_harness;
  RewriteResult result = rewriteSource(request);
  EXPECT_TRUE(result.ok) << result.error;
  return result.output;
}

std::string line(const std::string &output, int n) {
  // Two lines of prefix: the runtime include and #line.
  std::istringstream in(output);
  std::string text;
  for (int i = 0; i < n + 2 && std::getline(in, text); ++i) {
  }
  return text;
}

TEST(HarnessRewriterTest, LaunchesBecomeHarnessCallsOnTheSameLines) {
  std::string out = rewritten(true);
  EXPECT_EQ(line(out, 9), "  gpurace_cpu::launcher(fill<float>, \"fill\", dim3(2), 32, 0, 0)(x, 1.0f);");
  EXPECT_EQ(line(out, 10),
            "  gpurace_cpu::launcher(scale, \"scale\", 1, 64, 64 * sizeof(float))(x);");
  EXPECT_EQ(line(out, 12),
            "  gpurace_cpu::launchPacked(true, scale, \"scale\", 2, 32, args);");
}

TEST(HarnessRewriterTest, ExternSharedArrayPointsAtTheDynamicSharedMemory) {
  EXPECT_EQ(line(rewritten(true), 3),
            "  float *const tile = gpurace_cpu::dynamicShared<float>();");
}

TEST(HarnessRewriterTest, WithoutTheFlagHostCodeIsUntouched) {
  std::string out = rewritten(false);
  EXPECT_EQ(out.find("gpurace_cpu"), std::string::npos);
  EXPECT_EQ(line(out, 9), "  fill<<<dim3(2), 32, 0, 0>>>(x, 1.0f);");
}

} // namespace
} // namespace gpurace::rt
