// Calls through function pointers: every device function of the pointer's
// type whose address the program takes is a possible callee.
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

namespace gpurace::analyzer::testing {
namespace {

TEST(IndirectCall, RaceInOneTargetOfADispatchTableIsFound) {
  auto result = analyzeCode(R"(
typedef void (*op_t)(int *, int);
__device__ void own(int *d, int i) { d[i] = d[i] + 1; }
__device__ void right(int *d, int i) { d[i] = d[i + 1]; }
__device__ op_t ops[2] = {own, right};
__global__ void apply(int *d, int which) {
  int i = threadIdx.x;
  if (i < 31)
    ops[which](d, i);
}
int main() { int *d; cudaMalloc(&d, 128); apply<<<1, 32>>>(d, 1); }
)");
  EXPECT_TRUE(result.errors().empty()) << result.DebugString();
  EXPECT_TRUE(hasRaceBetween(result, 4, 4)) << result.DebugString();
  // A table slot is one function for all threads: `own` in one thread and
  // `right` in another is not a pair.
  EXPECT_FALSE(hasRaceBetween(result, 3, 4)) << result.DebugString();
}

TEST(IndirectCall, TableOfInPlaceOperationsIsRaceFree) {
  auto result = analyzeCode(R"(
typedef float (*op_t)(float);
__device__ float half(float v) { return v * 0.5f; }
__device__ float twice(float v) { return v * 2.0f; }
__device__ op_t ops[2] = {half, twice};
__global__ void apply(float *d, int n, int which) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = (*ops[which])(d[i]);
}
int main() { float *d; cudaMalloc(&d, 4096); apply<<<4, 256>>>(d, 1024, 0); }
)");
  EXPECT_TRUE(result.errors().empty()) << result.DebugString();
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
}

TEST(IndirectCall, PointerOfATypeNoFunctionHasIsAnErrorNamingTheConstruct) {
  auto result = analyzeCode(R"(
typedef int (*op_t)(int);
__global__ void apply(int *d, op_t f) { d[threadIdx.x] = f(d[threadIdx.x]); }
int main() { int *d; cudaMalloc(&d, 128); apply<<<1, 32>>>(d, nullptr); }
)");
  ASSERT_EQ(result.errors_size(), 1) << result.DebugString();
  EXPECT_NE(result.errors(0).message().find("function pointer"), std::string::npos)
      << result.errors(0).message();
  EXPECT_EQ(result.errors(0).kernel(), "apply");
}

} // namespace
} // namespace gpurace::analyzer::testing
