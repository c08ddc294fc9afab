// Host values as the definitions that reach a launch: assignments on
// several paths, early returns, compound updates, structs passed by
// reference, and values the host cannot establish, which results state.
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace gpurace::analyzer::testing {
namespace {

std::string withHost(const std::string &host) { return kFillKernel + host; }

// Analyzes `code` with its `%d` (or `%s`) as `safe`, which must be
// race-free, and as `racy`; the findings of the racy one.
template <typename Fill>
std::vector<v1::RaceCandidate> raceFreeThenRacy(const std::string &code, Fill safe, Fill racy) {
  char safe_code[2048], racy_code[2048];
  std::snprintf(safe_code, sizeof safe_code, code.c_str(), safe);
  std::snprintf(racy_code, sizeof racy_code, code.c_str(), racy);
  auto race_free = analyzeCode(safe_code);
  EXPECT_TRUE(findings(race_free).empty()) << race_free.DebugString();
  auto result = analyzeCode(racy_code);
  auto found = findings(result);
  EXPECT_FALSE(found.empty()) << result.DebugString();
  return found;
}

bool hasUnknownHostValue(const v1::RaceCandidate &candidate, const std::string &mention) {
  for (const v1::Imprecision &imprecision : candidate.imprecisions())
    if (imprecision.kind() == v1::IMPRECISION_KIND_UNKNOWN_HOST_VALUE &&
        imprecision.detail().find(mention) != std::string::npos)
      return true;
  return false;
}

// Analyzes `code` (a `load` and a main that calls it) with its `%s` as
// each test of `race_free`, which must give no finding, and as each of
// `size_unknown`, whose first finding must rest on the size `load` leaves.
void expectLoaderTests(const char *code, std::initializer_list<const char *> race_free,
                       std::initializer_list<const char *> size_unknown) {
  auto analyzeWith = [&](const char *test) {
    char program[1024];
    std::snprintf(program, sizeof program, code, test);
    return analyzeCode(withHost(program));
  };
  for (const char *test : race_free) {
    auto result = analyzeWith(test);
    EXPECT_TRUE(findings(result).empty()) << test << "\n" << result.DebugString();
  }
  for (const char *test : size_unknown) {
    auto result = analyzeWith(test);
    auto found = findings(result);
    ASSERT_FALSE(found.empty()) << test << "\n" << result.DebugString();
    EXPECT_TRUE(hasUnknownHostValue(found[0], "passed by address or reference to 'load'"))
        << test << "\n" << found[0].DebugString();
  }
}

TEST(HostValues, AValueSetOnEveryPathIsOneOfThem) {
  const char *host = R"(
int main(int argc, char **argv) {
  int threads;
  if (argc > 1) threads = 128; else threads = %d;
  float *out; cudaMalloc(&out, 1 << 22);
  fill<<<1024, threads>>>(out, 1 << 20);
}
)";
  char safe[512], wide[512];
  std::snprintf(safe, sizeof safe, host, 256);
  std::snprintf(wide, sizeof wide, host, 512);
  auto race_free = analyzeCode(withHost(safe));
  EXPECT_TRUE(findings(race_free).empty()) << race_free.DebugString();
  auto racy = analyzeCode(withHost(wide));
  auto found = findings(racy);
  ASSERT_FALSE(found.empty()) << racy.DebugString();
  // Both values are exact: the race is certain on the path that sets 512.
  EXPECT_EQ(found[0].witness().block_dim().x(), 512u);
  EXPECT_EQ(found[0].imprecisions_size(), 0) << found[0].DebugString();
}

TEST(HostValues, SignedDivisionTruncatesTowardZeroAsInC) {
  // -3 / 2 is -1 in C (256 threads, race-free), -5 / 2 is -2 (512 threads);
  // rounding down would make -3 / 2 -2 and report the race-free launch.
  raceFreeThenRacy(withHost(R"(
int main() {
  int m = %d;
  int threads = -256 * (m / 2);
  float *out; cudaMalloc(&out, 1 << 22);
  fill<<<1024, threads>>>(out, 1 << 20);
}
)"),
                   -3, -5);
  // The remainder takes the dividend's sign: -3 % 2 is -1 (512 threads).
  raceFreeThenRacy(withHost(R"(
int main() {
  int m = %d;
  int threads = 256 * (1 - m %% 2);
  float *out; cudaMalloc(&out, 1 << 22);
  fill<<<1024, threads>>>(out, 1 << 20);
}
)"),
                   -4, -3);
}

TEST(HostValues, TheVariableOfARangeForIsOneOfTheRangesEntries) {
  // Benchmarks sweep launch shapes over a list of block sizes.
  raceFreeThenRacy(withHost(R"(
int main() {
  int block_sizes[] = {64, 128, %d};
  float *out; cudaMalloc(&out, 1 << 22);
  for (int threads : block_sizes)
    fill<<<1024, threads>>>(out, 1 << 20);
}
)"),
                   256, 512);
  raceFreeThenRacy(withHost(R"(
int main() {
  float *out; cudaMalloc(&out, 1 << 22);
  for (const int &threads : {%d, 128})
    fill<<<1024, threads>>>(out, 1 << 20);
}
)"),
                   256, 1024);
  // A loop that binds the elements by reference may change them.
  auto scaled = analyzeCode(withHost(R"(
int main() {
  int block_sizes[] = {64, 128};
  for (int &threads : block_sizes)
    threads *= 4;
  float *out; cudaMalloc(&out, 1 << 22);
  for (int threads : block_sizes)
    fill<<<1024, threads>>>(out, 1 << 20);
}
)"));
  EXPECT_FALSE(findings(scaled).empty()) << scaled.DebugString();
}

TEST(HostValues, APathThatReturnsBeforeTheLaunchDoesNotReachIt) {
  auto result = analyzeCode(withHost(R"(
int main(int argc, char **argv) {
  int threads = 256;
  if (argc > 2) {
    threads = 1024;
    return 1;
  }
  float *out; cudaMalloc(&out, 1 << 22);
  fill<<<1024, threads>>>(out, 1 << 20);
}
)"));
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
}

TEST(HostValues, CompoundUpdatesAreFollowed) {
  // (96 + 32) * 2 is 256 threads: one less is race-free, one more races.
  const char *host = R"(
int main() {
  int threads = 96;
  threads += 32;
  threads *= 2;
  %sthreads;
  float *out; cudaMalloc(&out, 1 << 22);
  fill<<<1024, threads>>>(out, 1 << 20);
}
)";
  char fewer[512], more[512];
  std::snprintf(fewer, sizeof fewer, host, "--");
  std::snprintf(more, sizeof more, host, "++");
  auto race_free = analyzeCode(withHost(fewer));
  EXPECT_TRUE(findings(race_free).empty()) << race_free.DebugString();
  auto racy = analyzeCode(withHost(more));
  auto found = findings(racy);
  ASSERT_FALSE(found.empty()) << racy.DebugString();
  EXPECT_EQ(found[0].witness().block_dim().x(), 257u);
}

TEST(HostValues, AStructPassedByConstReferenceKeepsItsFields) {
  // The grid is the width over the block, the row stride is the width:
  // race-free whatever width the command line gives.
  auto result = analyzeCode(R"(
#include <cstdlib>
__global__ void scale(float *c, int width) {
  int col = blockIdx.x * 16 + threadIdx.x;
  int row = blockIdx.y * 16 + threadIdx.y;
  c[row * width + col] *= 2.0f;
}
int run(int tile, const dim3 &sizes) {
  float *c; cudaMalloc(&c, sizes.x * sizes.y * 4);
  dim3 threads(tile, tile);
  dim3 grid(sizes.x / threads.x, sizes.y / threads.y);
  scale<<<grid, threads>>>(c, sizes.x);
  return 0;
}
int main(int argc, char **argv) {
  int tile = 16;
  dim3 sizes(20 * tile, 10 * tile, 1);
  if (argc > 1) sizes.x = atoi(argv[1]);
  return run(tile, sizes);
}
)");
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
}

TEST(HostValues, ARaceOnAValueFromTheInputSaysSo) {
  auto result = analyzeCode(R"(
#include <cstdlib>
__global__ void accumulate(float *row, int width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  row[i % width] += 1.0f;
}
int main(int argc, char **argv) {
  int blocks = 16;
  if (argc > 1) blocks = atoi(argv[1]);
  float *row; cudaMalloc(&row, 4096 * 4);
  accumulate<<<blocks, 256>>>(row, 4096);
}
)");
  auto found = findings(result);
  ASSERT_FALSE(found.empty()) << result.DebugString();
  for (const auto &candidate : found) {
    EXPECT_TRUE(hasUnknownHostValue(candidate, "atoi(argv[1])")) << candidate.DebugString();
    EXPECT_LT(candidate.score(), 1.0);
  }
}

TEST(HostValues, AVariablePassedByReferenceIsNotItsInitializer) {
  // `adjust` may change the block size: 256 is not known at the launch.
  auto result = analyzeCode(withHost(R"(
void adjust(int &threads);
int main() {
  int threads = 256;
  adjust(threads);
  float *out; cudaMalloc(&out, 1 << 22);
  fill<<<1024, threads>>>(out, 1 << 20);
}
)"));
  auto found = findings(result);
  ASSERT_FALSE(found.empty()) << result.DebugString();
  EXPECT_TRUE(hasUnknownHostValue(found[0], "passed by address or reference to 'adjust'"))
      << found[0].DebugString();
}

TEST(HostValues, SizesWrittenThroughOutParametersAreTheCalleesValues) {
  // The helper writes the block through a pointer and the tile through a
  // reference: 128 threads for a tile of 128 is race-free, 160 is not.
  const char *code = R"(
__global__ void stamp(float *d, int tile) { d[blockIdx.x * tile + threadIdx.x] = blockIdx.x; }
void choose(int n, dim3 *grid, dim3 *block, int &tile) {
  tile = 128;
  block->x = tile + %d;
  *grid = dim3(n / tile, 1, 1);
}
int main() {
  dim3 grid, block;
  int tile = 0;
  choose(1 << 16, &grid, &block, tile);
  float *d; cudaMalloc(&d, 1 << 20);
  stamp<<<grid, block>>>(d, tile);
}
)";
  auto found = raceFreeThenRacy(code, 0, 32);
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found[0].witness().block_dim().x(), 160u);
  EXPECT_EQ(found[0].witness().grid_dim().x(), 512u);
  EXPECT_EQ(found[0].imprecisions_size(), 0) << found[0].DebugString();
}

TEST(HostValues, AnOutParameterOfALoaderIsWhatItLeavesWhereTheCallerStopsOnFailure) {
  // `load` returns false before it sets the size and true after. Where
  // main stops on false, however it tests the result, the launch sees only
  // what the successful path leaves (256, race-free); where it goes on
  // after a failure, a failed load leaves the size unset.
  const char *code = R"(
#include <cstdio>
#include <cstdlib>
bool load(const char *name, int &threads) {
  if (!name)
    return false;
  int asked = name[0];
  if (asked > 100)
    return false;
  threads = 256;
  return true;
}
int main(int argc, char **argv) {
  int threads;
  %s
  float *out; cudaMalloc(&out, 1 << 22);
  fill<<<1024, threads>>>(out, 1 << 20);
}
)";
  expectLoaderTests(code,
                    {
                        "if (!load(argv[1], threads)) return 1;",
                        "if (load(argv[1], threads) != true) { printf(\"bad\\n\"); exit(1); }",
                        "if (load(argv[1], threads) == false || argc > 3) return 1;",
                        "bool ok = load(argv[1], threads);\n  if (!ok) return 1;",
                        "bool ok = load(argv[1], threads);\n  if (ok == 0) { printf(\"bad\\n\"); return 1; }",
                    },
                    {
                        "if (!load(argv[1], threads)) printf(\"no input\\n\");",
                        "if (load(argv[1], threads)) return 1;",
                        "if (!load(argv[1], threads) && argc > 3) return 1;",
                        "bool ok = load(argv[1], threads);\n  if (ok) return 1;",
                    });
}

TEST(HostValues, AnOutParameterOfALoaderIsWhatItLeavesInTheBranchItsSuccessTakes) {
  // The launch inside the branch that runs only where `load` returned true
  // sees the 256 it leaves; in a branch that also runs after a failure,
  // the size is unknown.
  const char *code = R"(
#include <cstdio>
bool load(const char *name, int &threads) {
  if (!name)
    return false;
  threads = 256;
  return true;
}
int main(int argc, char **argv) {
  int threads;
  float *out; cudaMalloc(&out, 1 << 22);
  %s
    fill<<<1024, threads>>>(out, 1 << 20);
  }
}
)";
  expectLoaderTests(code,
                    {
                        "if (load(argv[1], threads)) {",
                        "if (argc > 1 && load(argv[1], threads) == true) {",
                        "if (!load(argv[1], threads)) { printf(\"none\\n\"); } else {",
                    },
                    {
                        "if (load(argv[1], threads) || argc > 1) {",
                        "if (!load(argv[1], threads)) {",
                    });
}

TEST(HostValues, ARaceFreeVerdictNamesTheCallItFollowed) {
  auto result = analyzeCode(R"(
__global__ void zero(float *d, int tile) { d[blockIdx.x * tile + threadIdx.x] = 0.0f; }
void choose(dim3 *block, int &tile) {
  tile = 128;
  block->x = tile;
}
int main() {
  dim3 block;
  int tile = 0;
  choose(&block, tile);
  float *d; cudaMalloc(&d, 1 << 20);
  zero<<<512, block>>>(d, tile);
}
)");
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
  bool named = false;
  for (const v1::RaceFreedomProof &proof : result.race_freedom_proofs())
    for (const v1::Assumption &a : proof.assumptions())
      named |= a.description().find("is what 'choose' leaves in it") != std::string::npos;
  EXPECT_TRUE(named) << result.DebugString();
}

TEST(HostValues, AStructReturnedByValueKeepsItsFields) {
  const char *code = R"(
struct Shape { int rows, cols, stride; };
Shape shapeFor(int n) {
  Shape s;
  s.rows = n;
  s.cols = 64;
  s.stride = s.cols - %d;
  return s;
}
__global__ void negate(float *m, int stride) { m[blockIdx.x * stride + threadIdx.x] *= -1.0f; }
int main() {
  Shape s = shapeFor(512);
  float *m; cudaMalloc(&m, s.rows * s.cols * 4);
  negate<<<s.rows, s.cols>>>(m, s.stride);
}
)";
  raceFreeThenRacy(code, 0, 32);
}

TEST(HostValues, MembersOfTheLaunchingObjectKeepTheMethodsAsserts) {
  // The method asserts the stride is the row length over its own members:
  // without the assert, a shorter stride makes neighbouring rows overlap.
  const char *code = R"(
#include <cassert>
__global__ void numberRows(float *a, int cols, int stride) {
  a[blockIdx.x * stride + threadIdx.x] = blockIdx.x;
}
class Matrix {
public:
  Matrix(int rows, int cols, int stride) : rows_(rows), cols_(cols), stride_(stride) {}
  void number() {
    %s
    numberRows<<<rows_, cols_>>>(data_, cols_, stride_);
  }
private:
  int rows_, cols_, stride_;
  float *data_;
};
int main(int argc, char **argv) {
  Matrix m(64, 64, argc);
  m.number();
}
)";
  char checked[1024], unchecked[1024];
  std::snprintf(checked, sizeof checked, code, "assert(stride_ == cols_);");
  std::snprintf(unchecked, sizeof unchecked, code, "");
  auto race_free = analyzeCode(checked);
  EXPECT_TRUE(findings(race_free).empty()) << race_free.DebugString();
  auto racy = analyzeCode(unchecked);
  auto found = findings(racy);
  ASSERT_FALSE(found.empty()) << racy.DebugString();
  EXPECT_TRUE(hasUnknownHostValue(found[0], "stride_")) << found[0].DebugString();
}

TEST(HostValues, AMemberTheMethodChangesIsNotWhatItAsserted) {
  auto result = analyzeCode(R"(
#include <cassert>
__global__ void numberRows(float *a, int stride) {
  a[blockIdx.x * stride + threadIdx.x] = blockIdx.x;
}
struct Matrix {
  int cols_, stride_;
  float *data_;
  void number(int shrink) {
    assert(stride_ == cols_);
    stride_ -= shrink;
    numberRows<<<64, cols_>>>(data_, stride_);
  }
};
int main(int argc, char **argv) {
  Matrix m{64, 64, nullptr};
  m.number(argc);
}
)");
  auto found = findings(result);
  ASSERT_FALSE(found.empty()) << result.DebugString();
  EXPECT_TRUE(hasUnknownHostValue(found[0], "changed by 'number'") ||
              hasUnknownHostValue(found[0], "stride_"))
      << found[0].DebugString();
}

TEST(HostValues, AFieldAssignedInTheLoopBodyBeforeTheLaunchIsThatValue) {
  // Each step sizes the grid from the loop's counter before launching:
  // `step` blocks read segment `step`, which none of them writes; one
  // block more writes it.
  const char *code = R"(
__global__ void advance(float *cells, int step) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  cells[c] += cells[step * blockDim.x + threadIdx.x];
}
int main() {
  float *cells; cudaMalloc(&cells, 1 << 20);
  dim3 grid, block(64);
  for (int step = 1; step <= 32; step++) {
    grid.x = step + %d;
    advance<<<grid, block>>>(cells, step);
  }
}
)";
  auto found = raceFreeThenRacy(code, 0, 1);
  ASSERT_FALSE(found.empty());
  std::string step;
  for (const auto &parameter : found[0].witness().parameters())
    if (parameter.name() == "step")
      step = parameter.value();
  ASSERT_FALSE(step.empty()) << found[0].DebugString();
  EXPECT_EQ(std::to_string(found[0].witness().grid_dim().x()), std::to_string(std::stoi(step) + 1))
      << found[0].DebugString();
  EXPECT_EQ(found[0].imprecisions_size(), 0) << found[0].DebugString();
}

TEST(HostValues, AnAssignmentThatReadsTheVariableReadsTheValueBeforeIt) {
  std::string code = withHost(R"(
int main() {
  int threads = 512;
  threads = threads / %d;
  float *out; cudaMalloc(&out, 1 << 22);
  fill<<<1024, threads>>>(out, 1 << 20);
}
)");
  auto found = raceFreeThenRacy(code, 2, 1);
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found[0].witness().block_dim().x(), 512u);
  EXPECT_EQ(found[0].imprecisions_size(), 0) << found[0].DebugString();
}

TEST(HostValues, WhatAVisibleHelperReturnsIsFollowed) {
  // Rounded-up division with an early return, and the host `min`.
  std::string code = withHost(R"(
static int divUp(int total, int part) {
  if (total %% part != 0)
    return total / part + 1;
  return total / part;
}
int main() {
  int n = 1 << 20;
  int threads = min(%d, 1024);
  float *out; cudaMalloc(&out, 1 << 22);
  fill<<<divUp(n, threads), threads>>>(out, n);
}
)");
  auto found = raceFreeThenRacy(code, 256, 512);
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found[0].witness().block_dim().x(), 512u);
  EXPECT_EQ(found[0].witness().grid_dim().x(), 2048u);
  EXPECT_EQ(found[0].imprecisions_size(), 0) << found[0].DebugString();
}

TEST(HostValues, GlobalsThatOnlyMainSetsAreMainsValuesAtTheCall) {
  // The launch is in a function `main` calls after setting the globals.
  std::string code = withHost(R"(
int threads = 64;
dim3 grid;
void run(float *out) { fill<<<grid, threads>>>(out, 1 << 20); }
int main() {
  threads = %d;
  grid.x = 1024;
  float *out; cudaMalloc(&out, 1 << 22);
  run(out);
}
)");
  auto found = raceFreeThenRacy(code, 256, 512);
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found[0].witness().block_dim().x(), 512u);
  EXPECT_EQ(found[0].imprecisions_size(), 0) << found[0].DebugString();
}

TEST(HostValues, AGlobalNothingSetsIsItsInitializer) {
  // A wrapper no visible code calls still reads the global's initializer.
  std::string code = withHost(R"(
static dim3 block(%d);
void run(float *out) { fill<<<1024, block>>>(out, 1 << 20); }
)");
  auto found = raceFreeThenRacy(code, 256, 1024);
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found[0].witness().block_dim().x(), 1024u);
  EXPECT_FALSE(hasUnknownHostValue(found[0], "block")) << found[0].DebugString();
}

TEST(HostValues, AGlobalAnotherFunctionSetsIsUnknownAndSaysWho) {
  auto result = analyzeCode(withHost(R"(
#include <cstdlib>
int threads = 256;
void configure(int wanted) { threads = wanted; }
int main(int argc, char **argv) {
  configure(atoi(argv[1]));
  float *out; cudaMalloc(&out, 1 << 22);
  fill<<<1024, threads>>>(out, 1 << 20);
}
)"));
  auto found = findings(result);
  ASSERT_FALSE(found.empty()) << result.DebugString();
  EXPECT_TRUE(hasUnknownHostValue(found[0], "'configure' may set")) << found[0].DebugString();
}

TEST(HostValues, AssignmentsInAnExitGuardsConditionReachTheLaunch) {
  // `usage` always exits, so past the guard every operand of the `||` ran:
  // threads is the input, and at most the bound. In the caller the launch
  // is reached through a declaration's initializer.
  raceFreeThenRacy(withHost(R"(
#include <cstdio>
#include <cstdlib>
void usage(const char *name) { fprintf(stderr, "usage: %%s threads\n", name); exit(1); }
int run(int argc, char **argv) {
  int threads;
  if (argc < 2 || (threads = atoi(argv[1])) <= 0 || threads > %d)
    usage(argv[0]);
  float *out; cudaMalloc(&out, 1 << 22);
  fill<<<1024, threads>>>(out, 1 << 20);
  return 0;
}
int main(int argc, char **argv) {
  int status = run(argc, argv);
  return status;
}
)"),
                   256, 257);
}

TEST(HostValues, AGuardInACallerReachesALaunchCalledFromADeclaration) {
  raceFreeThenRacy(withHost(R"(
#include <cstdlib>
int launch(int threads) {
  float *out; cudaMalloc(&out, 1 << 22);
  fill<<<1024, threads>>>(out, 1 << 20);
  return 0;
}
int main(int argc, char **argv) {
  int threads = atoi(argv[1]);
  if (threads > %d) return 1;
  int status = launch(threads);
  return status;
}
)"),
                   256, 512);
}

TEST(HostValues, ALaunchUnderASwitchCaseRunsForTheLabelsThatReachIt) {
  // The label before falls through into the launch's case: 128 keeps the
  // block within the kernel's 256-thread stride, 512 does not.
  auto found = raceFreeThenRacy(withHost(R"(
#include <cstdio>
#include <cstdlib>
void launch(int threads) {
  float *out; cudaMalloc(&out, 1 << 22);
  switch (threads) {
  case 1024:
    printf("too wide\n");
    break;
  case %d:
    printf("narrow\n");
  case 256:
    fill<<<1024, threads>>>(out, 1 << 20);
    break;
  default:
    break;
  }
}
int main(int argc, char **argv) {
  launch(atoi(argv[1]));
}
)"),
                                128, 512);
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found[0].witness().block_dim().x(), 512u) << found[0].DebugString();
}

TEST(HostValues, ALaunchInsideLambdasReadsTheCapturedVariablesOfItsCallers) {
  // A dispatch macro's lambdas, one inside another: the grid, the block
  // and the buffers are locals and parameters of the enclosing function.
  // A 1D grid leaves blockIdx.y at 0; the second call shifts the output
  // by %d elements onto the input.
  auto found = raceFreeThenRacy(R"(
__global__ void scale(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2 * in[i];
}
#define DISPATCH(V, ...) [&] { if (V > 0) return __VA_ARGS__(); }()
void launch(float *out, const float *in, long n) {
  int threads = 256;
  dim3 grid(n / threads);
  DISPATCH(n, [&] { DISPATCH(n, [&] { scale<<<grid, threads>>>(out, in); }); });
}
int main() {
  float *a, *b;
  cudaMalloc(&a, 4096 * 4);
  cudaMalloc(&b, 4096 * 4);
  launch(b, a, 4096);
  launch(a + %d, a, 4095);
}
)",
                                0, 1);
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found[0].witness().grid_dim().y(), 1u) << found[0].DebugString();
  EXPECT_EQ(found[0].witness().block_dim().x(), 256u) << found[0].DebugString();
  // Four lambda calls and `launch`'s: the lambdas count towards no depth.
  ASSERT_EQ(found[0].launch_site().called_from_size(), 5) << found[0].DebugString();
  EXPECT_EQ(found[0].launch_site().called_from(4).function(), "main");
}

TEST(HostValues, ALaunchInAGenericLambdaIsFoundInEachOfItsSpecializations) {
  // A dispatch through `[&](auto tag)`: the launch is resolved only in the
  // call operator's specializations, one per tag. The grid is the
  // enclosing function's parameter: one block, or two that share a row.
  auto found = raceFreeThenRacy(R"(
#include <type_traits>
template <bool Clear>
__global__ void fill(float *row) { row[threadIdx.x] = Clear ? blockIdx.x : blockIdx.x + 1; }
void launch(float *row, bool clear, int blocks) {
  auto dispatch = [&](auto tag) { fill<decltype(tag)::value><<<blocks, 128>>>(row); };
  if (clear)
    dispatch(std::true_type{});
  else
    dispatch(std::false_type{});
}
int main() { float *r; cudaMalloc(&r, 512); launch(r, true, %d); }
)",
                                1, 2);
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found[0].witness().grid_dim().x(), 2u) << found[0].DebugString();
  ASSERT_GE(found[0].launch_site().called_from_size(), 2) << found[0].DebugString();
  EXPECT_EQ(found[0].launch_site().called_from(found[0].launch_site().called_from_size() - 1)
                .function(),
            "main");
}

TEST(HostValues, AFieldEveryIterationSetsBackToItsEntryValueKeepsIt) {
  // The grid of each pass is one row: grid.y starts at 1 and each pass
  // sets it to 1 again. Set to 2, blocks of two rows share a column.
  auto found = raceFreeThenRacy(R"(
__global__ void bump(float *sums) {
  sums[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f;
}
void passes(float *sums, int n) {
  dim3 grid(n / 256);
  while (grid.x > 0) {
    bump<<<grid, 256>>>(sums);
    grid.x /= 256;
    grid.y = %d;
  }
}
int main() { float *s; cudaMalloc(&s, 1 << 24); passes(s, 1 << 20); }
)",
                                1, 2);
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found[0].witness().grid_dim().y(), 2u) << found[0].DebugString();
}

TEST(HostValues, AStrideEachIterationScalesStaysPositiveAndAMultiple) {
  // Each block writes 16 elements from blockIdx.x * stride. The stride
  // starts at 16 and each pass multiplies it by 16: at least 1 and 16 or
  // a multiple of 16, so blocks never overlap. Halved, it reaches 8.
  auto found = raceFreeThenRacy(R"(
__global__ void spread(float *out, int stride) {
  out[blockIdx.x * stride + threadIdx.x] = threadIdx.x;
}
void passes(float *out, int blocks) {
  int stride = 16;
  for (int pass = 0; pass < 3; pass++) {
    spread<<<blocks, 16>>>(out, stride);
    stride = stride %s;
  }
}
int main() { float *o; cudaMalloc(&o, 1 << 26); passes(o, 64); }
)",
                                "* 16", "/ 2");
  ASSERT_FALSE(found.empty());
  std::optional<int64_t> stride;
  for (const auto &p : found[0].witness().parameters())
    if (p.name() == "stride")
      stride = std::stoll(p.value());
  ASSERT_TRUE(stride) << found[0].DebugString();
  EXPECT_LT(*stride, 16) << found[0].DebugString();
}

TEST(HostValues, ALaunchThroughAKernelPointerIsALaunchOfEveryKernelItIsSetTo) {
  // `kernel` is set in a switch and with a conditional; both kernels get
  // the launch's 256 threads, which only the second one's stride of %d
  // may be too small for (its blocks stamp their number).
  auto found = raceFreeThenRacy(R"(
__global__ void zero(float *d, int n) { d[blockIdx.x * 256 + threadIdx.x] = 0.0f; }
__global__ void stamp(float *d, int n) { d[blockIdx.x * %d + threadIdx.x] = blockIdx.x; }
int main(int argc, char **argv) {
  float *d; cudaMalloc(&d, 1 << 22);
  void (*kernel)(float *, int) = argc > 2 ? zero : &stamp;
  for (int round = 0; round < 2; ++round) {
    switch (round) {
    case 0: kernel = &zero; break;
    default: kernel = stamp; break;
    }
    kernel<<<1024, 256>>>(d, 1 << 18);
  }
}
)",
                                256, 128);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kernel(), "stamp");
  EXPECT_EQ(found[0].witness().block_dim().x(), 256u) << found[0].DebugString();
  EXPECT_TRUE(found[0].has_launch_site());
}

TEST(HostValues, ALaunchUnderDefaultRunsForNoValueALabelNames) {
  raceFreeThenRacy(withHost(R"(
#include <cstdlib>
void launch(int threads) {
  float *out; cudaMalloc(&out, 1 << 22);
  switch (threads > 256 ? 1 : 0) {
  case %d:
    return;
  default:
    fill<<<1024, threads>>>(out, 1 << 20);
  }
}
int main(int argc, char **argv) {
  launch(atoi(argv[1]));
}
)"),
                   1, 0);
}

TEST(HostValues, ASwitchConditionTheCaseChangesBeforeTheLaunchIsTheNewValue) {
  // Under `case 256:` the block size is what the case sets it to, not the
  // label.
  raceFreeThenRacy(withHost(R"(
#include <cstdlib>
void launch(int threads) {
  float *out; cudaMalloc(&out, 1 << 22);
  switch (threads) {
  case 256:
    threads = %d;
    fill<<<1024, threads>>>(out, 1 << 20);
    break;
  default:
    break;
  }
}
int main(int argc, char **argv) {
  launch(atoi(argv[1]));
}
)"),
                   128, 512);
}

TEST(HostValues, AValueEachCaseOfASwitchSetsIsOneOfThem) {
  auto found = raceFreeThenRacy(withHost(R"(
#include <cstdlib>
int main(int argc, char **argv) {
  int threads = 32;
  switch (atoi(argv[1])) {
  case 0:
    threads = 128;
    break;
  case 1: {
    threads = %d;
    break;
  }
  case 2:
    return 1;
  case 3:
    threads = 1024; // falls through: 3 ends with 64 threads
  case 4:
    threads = 64;
  }
  float *out; cudaMalloc(&out, 1 << 22);
  fill<<<1024, threads>>>(out, 1 << 20);
}
)"),
                                256, 512);
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found[0].witness().block_dim().x(), 512u) << found[0].DebugString();
}

// One row per warp: blocks narrower than a warp all take row 0 of their
// grid, which every block then writes.
const char *const kRowPerWarp = R"(
#include <cstdlib>
__global__ void rows(float *out, int n, int c) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= n) return;
  for (int i = threadIdx.x % 32; i < c; i += 32)
    out[row * c + i] = blockIdx.x;
}
int main(int argc, char **argv) {
  int n = 4096, c = 1000;
  float *out;
  cudaMalloc(&out, n * c * sizeof(float));
  %s
  for (int j = start; j <= 1024; j *= 2)
    rows<<<(n * 32 + j - 1) / j, j>>>(out, n, c);
}
)";

TEST(HostValues, TheWarpSizeADeviceReportsIsThirtyTwo) {
  for (const char *query :
       {"cudaDeviceProp p; cudaGetDeviceProperties(&p, 0); int start = p.warpSize;",
        "int start; cudaDeviceGetAttribute(&start, cudaDevAttrWarpSize, 0);"}) {
    auto result = analyzeReplacing(kRowPerWarp, "%s", query);
    EXPECT_TRUE(findings(result).empty()) << query << "\n" << result.DebugString();
  }
  // A quarter of it is a known 8: a certain race, resting on no unknown.
  auto result = analyzeReplacing(
      kRowPerWarp, "%s",
      "cudaDeviceProp p; cudaGetDeviceProperties(&p, 0); int start = p.warpSize / 4;");
  auto found = findings(result);
  ASSERT_FALSE(found.empty()) << result.DebugString();
  EXPECT_EQ(found[0].score(), 1.0) << found[0].DebugString();
  EXPECT_LT(found[0].witness().block_dim().x(), 32u) << found[0].DebugString();
}

TEST(HostValues, ALaunchInALoopFromAnUnknownStartRestsOnIt) {
  auto unknown = findings(analyzeReplacing(kRowPerWarp, "%s", "int start = atoi(argv[1]);"));
  ASSERT_FALSE(unknown.empty());
  EXPECT_TRUE(hasUnknownHostValue(unknown[0], "j grows from start")) << unknown[0].DebugString();
  EXPECT_LT(unknown[0].score(), 1.0);
  // From a known start the loop's values are known, however many.
  auto known = findings(analyzeReplacing(kRowPerWarp, "%s", "int start = 8;"));
  ASSERT_FALSE(known.empty());
  EXPECT_TRUE(known[0].imprecisions().empty()) << known[0].DebugString();
}

// Per-block partial sums at out[blockIdx.x * 64 + threadIdx.x], launched
// with dims a vector maker fills: blocks of 64 threads keep to their slots.
const char *const kMadeDims = R"(
__global__ void partials(unsigned *out, const unsigned *in) {
  out[blockIdx.x * 64 + threadIdx.x] = in[threadIdx.x];
}
int main() {
  unsigned *out, *in;
  cudaMalloc(&out, 8 * 64 * sizeof(unsigned));
  cudaMalloc(&in, 64 * sizeof(unsigned));
  dim3 grid, threads;
  grid = make_uint3(8, 1, 1);
  threads = make_uint3(WIDTH, 1, 1);
  partials<<<grid, threads>>>(out, in);
}
)";

TEST(HostValues, DimsAssignedFromAVectorMakerTakeItsArguments) {
  auto fits = analyzeReplacing(kMadeDims, "WIDTH", "64");
  EXPECT_TRUE(fits.errors().empty()) << fits.DebugString();
  EXPECT_EQ(fits.candidates_size(), 0) << fits.DebugString();
  auto wide = findings(analyzeReplacing(kMadeDims, "WIDTH", "128"), v1::RACE_CLASS_INTER_BLOCK);
  ASSERT_FALSE(wide.empty());
  EXPECT_EQ(wide.front().witness().block_dim().x(), 128u) << wide.front().DebugString();
  EXPECT_DOUBLE_EQ(wide.front().score(), 1.0) << wide.front().DebugString();
}

} // namespace
} // namespace gpurace::analyzer::testing
