// Host values computed in floating point: whole numbers read exactly
// (ceil of a quotient, a float counter), and other floats converted back to
// integers within the bounds interval arithmetic gives them.
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace gpurace::analyzer::testing {
namespace {

// kFillKernel with the math headers, then `host` with its `%d` as `value`.
std::string withHost(const char *host, int value) {
  char code[1024];
  std::snprintf(code, sizeof code, host, value);
  return std::string("#include <cmath>\n#include <algorithm>") + kFillKernel + code;
}

bool mentionsImprecision(const v1::RaceCandidate &candidate, const std::string &mention) {
  for (const v1::Imprecision &imprecision : candidate.imprecisions())
    if (imprecision.detail().find(mention) != std::string::npos)
      return true;
  return false;
}

TEST(HostFloats, CeilOfAQuotientIsExactCeilingDivision) {
  // ceil(1024 / 4.0) == 256 threads; ceil(1025 / 4.0) == 257.
  const char *host = R"(
int main() {
  int n = %d;
  int threads = (int)ceil(n / 4.0);
  float *out; cudaMalloc(&out, 1 << 22);
  fill<<<1024, threads>>>(out, 1 << 20);
}
)";
  auto race_free = analyzeCode(withHost(host, 1024));
  EXPECT_TRUE(findings(race_free).empty()) << race_free.DebugString();
  auto racy = analyzeCode(withHost(host, 1025));
  auto found = findings(racy);
  ASSERT_FALSE(found.empty()) << racy.DebugString();
  EXPECT_EQ(found[0].witness().block_dim().x(), 257u);
  EXPECT_EQ(found[0].imprecisions_size(), 0) << found[0].DebugString();
}

TEST(HostFloats, AFloatCounterOfWholeNumbersIsTheLoopsCounter) {
  // Threads 64 * (t + 1) for t = 0, 1, ... while t < bound.
  const char *host = R"(
int main() {
  float *out; cudaMalloc(&out, 1 << 22);
  for (float t = 0; t < %d; t += 1)
    fill<<<1024, (int)(64 * (t + 1))>>>(out, 1 << 20);
}
)";
  auto race_free = analyzeCode(withHost(host, 4));
  EXPECT_TRUE(findings(race_free).empty()) << race_free.DebugString();
  auto racy = analyzeCode(withHost(host, 5));
  auto found = findings(racy);
  ASSERT_FALSE(found.empty()) << racy.DebugString();
  EXPECT_EQ(found[0].witness().block_dim().x(), 320u);
}

TEST(HostFloats, AFractionalStepIsNotAWholeCounter) {
  // t = 0, 0.5, ..., 3.5: 64 * (t + 1) reaches 288 threads, though
  // t < 4 would keep a whole counter at 256.
  auto result = analyzeCode(withHost(R"(
int main() {
  float *out; cudaMalloc(&out, 1 << 22);
  for (float t = 0; t < %d; t += 0.5f)
    fill<<<1024, (int)(64 * (t + 1))>>>(out, 1 << 20);
}
)",
                                     4));
  EXPECT_FALSE(findings(result).empty()) << result.DebugString();
}

TEST(HostFloats, AConvertedFloatKeepsItsBounds) {
  // 512 divided by at least 2 (race-free) or by at least 1 (racy).
  const char *host = R"(
int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  float scale = std::max(64.0f / prop.multiProcessorCount, %d.0f);
  int threads = (int)(512 / scale);
  float *out; cudaMalloc(&out, 1 << 22);
  fill<<<1024, threads>>>(out, 1 << 20);
}
)";
  auto race_free = analyzeCode(withHost(host, 2));
  EXPECT_TRUE(findings(race_free).empty()) << race_free.DebugString();
  auto racy = analyzeCode(withHost(host, 1));
  auto found = findings(racy);
  ASSERT_FALSE(found.empty()) << racy.DebugString();
  EXPECT_LE(found[0].witness().block_dim().x(), 512u);
  EXPECT_TRUE(mentionsImprecision(found[0], "converts a floating-point value"))
      << found[0].DebugString();
}

// Each thread writes two interleaved slots, `2 * i + (int)a` and
// `2 * i + (int)b`: apart from every other thread's when a and b are 0 and
// 1, not when b is 2 (thread i's second slot is thread i + 1's first).
const char *kShiftKernel = R"(
#include <cuda_runtime.h>
struct Shift { double a, b; };
__global__ void interleave(int *out, Shift s, double c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[2 * i + (int)s.a] = i;
  out[2 * i + (int)s.b] = -i;
  out[(1 << 20) + 2 * i + 1 + (int)c] = i;
  out[(1 << 20) + 2 * i] = -i;
}
)";

std::string withShifts(const char *host, const char *write, int row) {
  char code[1024];
  std::snprintf(code, sizeof code, host, write, row);
  return std::string(kShiftKernel) + code;
}

// The shifts come from a table the host never writes, through a wrapper
// that takes the struct by value, as stencils pass their directions.
const char *kShiftHost = R"(
void launch(int *out, const Shift s, double c) {
  interleave<<<64, 256>>>(out, s, c);
}
int main() {
  double e[2][2] = {{0, 1}, {0, 2}};
  %s
  Shift s;
  s.a = e[0][0];
  s.b = e[%d][1];
  int *out; cudaMalloc(&out, sizeof(int) << 22);
  launch(out, s, e[0][0]);
}
)";

TEST(HostFloats, AWholeFloatArgumentConvertsToItsValueInTheKernel) {
  auto race_free = analyzeCode(withShifts(kShiftHost, "", 0));
  EXPECT_TRUE(findings(race_free).empty()) << race_free.DebugString();
  // b = 2.0: thread i's second slot is thread i + 1's first.
  auto racy = analyzeCode(withShifts(kShiftHost, "", 1));
  auto found = findings(racy);
  ASSERT_FALSE(found.empty()) << racy.DebugString();
  bool shown = false;
  for (const auto &p : found[0].witness().parameters())
    shown |= p.name() == "(int)s.b" && p.value() == "2";
  EXPECT_TRUE(shown) << found[0].witness().DebugString();
}

TEST(HostFloats, AWrittenTableGivesNoWholeArgument) {
  // `e[1][1] = 1` makes the table's second row one of two values, which
  // is not followed: the shift is unknown, and so is the race.
  auto result = analyzeCode(withShifts(kShiftHost, "e[1][1] = 1;", 0));
  EXPECT_FALSE(findings(result).empty()) << result.DebugString();
}

} // namespace
} // namespace gpurace::analyzer::testing
