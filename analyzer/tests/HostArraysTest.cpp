// Elements of host arrays that a function fills side by side (per-level
// sizes of a pyramid), parameters left to their default arguments, and
// parameters that hold values of their type.
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

#include <string>

namespace gpurace::analyzer::testing {
namespace {

// Row y of `out` at y * stride, stamped with its row number: rows overlap
// unless stride >= w.
const char *const kRowsKernel = R"(
#include <cuda_runtime.h>
inline int alignUp(int n, int m = 32) {
  int rest = n % m;
  return rest ? n + m - rest : n;
}
__global__ void rows(float *out, int w, int h, int stride) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[y * stride + x] = y;
}
)";

// Fills per-level widths, heights and strides (STORE_STRIDE is what the
// loop stores as a lower level's stride) and launches `rows` once per level
// with the elements LAUNCH_ARGS names.
std::string pyramid(const std::string &store_stride, const std::string &launch_args,
                    const std::string &after_fill = "") {
  return std::string(kRowsKernel) + R"(
void levels(int width, int height, int count, float **bufs) {
  int *w = new int[count];
  int *h = new int[count];
  int *s = new int[count];
  int top = count - 1;
  w[top] = width;
  h[top] = height;
  s[top] = alignUp(width);
  for (int l = top; l > 0; --l) {
    int nw = w[l] / 2;
    int nh = h[l] / 2;
    w[l - 1] = nw;
    h[l - 1] = nh;
    s[l - 1] = )" + store_stride + R"(;
  }
)" + after_fill + R"(
  dim3 threads(32, 8);
  for (int l = 0; l < count; ++l) {
    dim3 blocks((w[l] + 31) / 32, (h[l] + 7) / 8);
    rows<<<blocks, threads>>>()" + launch_args + R"();
  }
  delete[] w;
  delete[] h;
  delete[] s;
}
int main() {
  float *bufs[4];
  levels(1920, 1080, 4, bufs);
}
)";
}

TEST(HostArrays, ElementsStoredTogetherKeepTheirRelation) {
  // Every stride stored is rounded up from the width stored beside it.
  auto race_free = analyzeCode(pyramid("alignUp(nw)", "bufs[l], w[l], h[l], s[l]"));
  EXPECT_TRUE(findings(race_free).empty()) << race_free.DebugString();
  // Rounded up from the height, a lower level's stride (544 for 960 by
  // 540) is shorter than its width.
  auto racy = analyzeCode(pyramid("alignUp(nh)", "bufs[l], w[l], h[l], s[l]"));
  auto found = findings(racy);
  ASSERT_FALSE(found.empty()) << racy.DebugString();
  for (const v1::NamedValue &param : found[0].witness().parameters())
    if (param.name() == "stride")
      EXPECT_NE(param.value(), "?") << found[0].DebugString();
}

TEST(HostArrays, ElementsOfTwoIndicesComeFromDifferentStores) {
  // s[l + 1] covers w[l + 1], which is half of w[l]: nothing ties it to w[l].
  auto racy = analyzeCode(pyramid("alignUp(nw)", "bufs[l], w[l], h[l], s[l + 1]"));
  EXPECT_FALSE(findings(racy).empty()) << racy.DebugString();
}

TEST(HostArrays, AConstantIndexReadsWhatWasStoredAtThatIndex) {
  // `block[0] = X; block[1] = Y;` sets two elements, not one of two values.
  // A block covers two rows of 256: 256 x 2 threads are race-free, 2 x 256
  // overlap the next block's rows.
  auto analyzeDims = [](int x, int y) {
    return analyzeCode(R"(
__global__ void rows(float *out) {
  out[blockIdx.x * 512 + threadIdx.y * 256 + threadIdx.x] = blockIdx.x;
}
int main() {
  int block[2];
  block[0] = )" + std::to_string(x) + R"(;
  block[1] = )" + std::to_string(y) + R"(;
  float *out; cudaMalloc(&out, 1 << 22);
  rows<<<1024, dim3(block[0], block[1])>>>(out);
}
)");
  };
  auto race_free = analyzeDims(256, 2);
  EXPECT_TRUE(findings(race_free).empty()) << race_free.DebugString();
  auto racy = analyzeDims(2, 256);
  auto found = findings(racy);
  ASSERT_FALSE(found.empty()) << racy.DebugString();
  EXPECT_EQ(found[0].witness().block_dim().x(), 2u);
  EXPECT_EQ(found[0].witness().block_dim().y(), 256u);
}

TEST(HostArrays, AnInitializerListSetsTheElementsFirst) {
  // `size_t local[] = {64, 2, 1}; local[0] = X;`: y is 2, x one of 64 and X.
  // Shapes of 256 x 2 and 64 x 2 are race-free; 512 x 2 overlaps the next
  // block. `global[1]` is only its initializer's 1.
  auto analyzeWidth = [](int x) {
    return analyzeCode(R"(
__global__ void rows(float *out) {
  out[(blockIdx.y * gridDim.x + blockIdx.x) * 512 + threadIdx.y * 256 + threadIdx.x] = blockIdx.x;
}
int main() {
  size_t local[] = {64, 2, 1};
  size_t global[] = {1024, 1};
  local[0] = )" + std::to_string(x) + R"(;
  global[0] = 2048;
  float *out; cudaMalloc(&out, 1 << 24);
  rows<<<dim3(global[0], global[1]), dim3(local[0], local[1])>>>(out);
}
)");
  };
  auto race_free = analyzeWidth(256);
  EXPECT_TRUE(findings(race_free).empty()) << race_free.DebugString();
  auto racy = analyzeWidth(512);
  auto found = findings(racy);
  ASSERT_FALSE(found.empty()) << racy.DebugString();
  EXPECT_EQ(found[0].witness().block_dim().x(), 512u);
  EXPECT_EQ(found[0].witness().block_dim().y(), 2u);
}

TEST(HostArrays, AnArrayHandedToACallIsNotFollowed) {
  // `tweak` may store anything into the strides.
  std::string code = pyramid("alignUp(nw)", "bufs[l], w[l], h[l], s[l]", "  tweak(s, count);\n");
  code.insert(code.find("void levels"), "void tweak(int *s, int count);\n");
  auto racy = analyzeCode(code);
  auto found = findings(racy);
  ASSERT_FALSE(found.empty()) << racy.DebugString();
  bool named = false;
  for (const v1::Imprecision &imprecision : found[0].imprecisions())
    named = named || imprecision.detail().find("s[l]") != std::string::npos;
  EXPECT_TRUE(named) << found[0].DebugString();
}

TEST(HostArrays, ConstantTablesReadAtOneIndexGiveOneEntry) {
  // Widths and strides of a size table, read at one index: each entry's
  // stride covers its width, so rows never overlap; with the strides in
  // the other order the second entry's stride (64) is under its width.
  auto tables = [](const char *strides) {
    return std::string(kRowsKernel) + "int main() {\n  const int widths[] = {64, 128};\n" +
           "  const int strides[] = " + strides + ";\n" + R"(
  float *out; cudaMalloc(&out, 1 << 22);
  for (int i = 0; i < 2; i++)
    rows<<<dim3(4, 64), dim3(32, 1)>>>(out, widths[i], 64, strides[i]);
}
)";
  };
  auto proved = analyzeCode(tables("{64, 160}"));
  EXPECT_TRUE(proved.errors().empty()) << proved.DebugString();
  EXPECT_TRUE(findings(proved).empty()) << proved.DebugString();
  auto racy = analyzeCode(tables("{160, 64}"));
  auto found = findings(racy);
  ASSERT_FALSE(found.empty()) << racy.DebugString();
  for (const auto &p : found.front().witness().parameters())
    if (p.name() == "stride")
      EXPECT_EQ(p.value(), "64") << found.front().DebugString();
}

TEST(HostArrays, APitchFromCudaMallocPitchCoversTheRowItWasAskedFor) {
  // The pitch is the runtime's choice, at least the row's bytes: rows
  // stepped by it never overlap; stepped by half of it they may.
  auto pitched = [](const char *step) {
    return std::string(R"(
#include <cstdlib>
#include <cuda_runtime.h>
__global__ void rows(float *base, size_t step, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x < w && y < h)
    ((float *)((char *)base + y * step))[x] = y;
}
int main(int argc, char **argv) {
  int w = atoi(argv[1]);
  float *base; size_t pitch;
  cudaMallocPitch((void **)&base, &pitch, w * sizeof(float), 64);
  rows<<<dim3((w + 127) / 128, 64), 128>>>(base, )") + step + ", w, 64);\n}\n";
  };
  auto proved = analyzeCode(pitched("pitch"));
  EXPECT_TRUE(proved.errors().empty()) << proved.DebugString();
  EXPECT_TRUE(findings(proved).empty()) << proved.DebugString();
  auto racy = analyzeCode(pitched("pitch / 2"));
  EXPECT_FALSE(findings(racy).empty()) << racy.DebugString();
}

TEST(HostArrays, AParameterLeftToItsDefaultIsTheDefault) {
  // alignUp(n) rounds up to 32: the stride covers the width. With the
  // default unread, `m` could be 1 and the stride anything from w up.
  auto result = analyzeCode(std::string(kRowsKernel) + R"(
void launch(float *out, int w, int h) {
  dim3 threads(32, 8);
  dim3 blocks((w + 31) / 32, (h + 7) / 8);
  rows<<<blocks, threads>>>(out, w, h, alignUp(w) - 16);
}
int main() {
  float *out;
  cudaMalloc(&out, 1 << 24);
  launch(out, 1000, 100);
}
)");
  // alignUp(1000) - 16 is 1008: at least the width, so race-free; were
  // `m` unknown, m = 1 would make the stride 984.
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
}

TEST(HostArrays, AnIntParameterHoldsOnlyIntValues) {
  // The store races only where n is past INT_MAX, which no int holds.
  auto result = analyzeCode(R"(
__global__ void big(int n, int *out) {
  if ((long long)n > 3000000000LL)
    out[0] = threadIdx.x;
}
)");
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
  auto wide = analyzeCode(R"(
__global__ void big(long long n, int *out) {
  if (n > 3000000000LL)
    out[0] = threadIdx.x;
}
)");
  EXPECT_FALSE(findings(wide).empty()) << wide.DebugString();
}

} // namespace
} // namespace gpurace::analyzer::testing
