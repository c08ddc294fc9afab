// How candidates are ranked: the score follows the sources of imprecision,
// not the layout of the code, and benign same-value writes are not
// findings.
#include "analyzer/report/Ranking.h"
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace gpurace::analyzer::testing {
namespace {

const char *kGuardedCount = R"(
__global__ void countWide(const int *off, const int *colour, int *count, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) {
    %s
    if (end - begin > 4 && colour[v] == 0)
      count[0]++;
  }
}
int main() {
  int *o, *c, *k; cudaMalloc(&o, 4100); cudaMalloc(&c, 4096); cudaMalloc(&k, 4);
  countWide<<<4, 256>>>(o, c, k, 1024);
}
)";

std::string withDeclarations(const char *declarations) {
  char code[2048];
  std::snprintf(code, sizeof code, kGuardedCount, declarations);
  return code;
}

double bestScore(const v1::AnalysisResult &result) {
  double best = 0;
  for (const v1::RaceCandidate &c : result.candidates())
    best = std::max(best, c.score());
  return best;
}

TEST(Ranking, ARaceThatNeedsOnlyItsGuardIsAFindingWhateverTheLayout) {
  auto one_line = analyzeCode(withDeclarations("int begin = off[v], end = off[v + 1];"));
  auto two_lines =
      analyzeCode(withDeclarations("int begin = off[v];\n    int end = off[v + 1];"));
  ASSERT_FALSE(findings(one_line, v1::RACE_CLASS_INTER_BLOCK).empty())
      << one_line.DebugString();
  ASSERT_FALSE(findings(two_lines, v1::RACE_CLASS_INTER_BLOCK).empty())
      << two_lines.DebugString();
  EXPECT_EQ(bestScore(one_line), bestScore(two_lines));
  std::vector<v1::RaceCandidate> found = findings(one_line);
  for (const v1::Imprecision &i : found[0].imprecisions()) {
    EXPECT_TRUE(i.guard_only()) << i.DebugString();
    EXPECT_EQ(i.kind(), v1::IMPRECISION_KIND_LOADED_VALUE);
  }
}

TEST(Ranking, LoadsFromOneArrayCountOnceInTheAddress) {
  v1::RaceCandidate candidate;
  for (int line : {3, 4}) {
    v1::Imprecision *loaded = candidate.add_imprecisions();
    loaded->set_kind(v1::IMPRECISION_KIND_LOADED_VALUE);
    loaded->set_detail("value loaded from idx");
    loaded->set_source("idx");
    loaded->mutable_location()->set_line(line);
  }
  EXPECT_DOUBLE_EQ(scoreOf(candidate), penaltyOf(v1::IMPRECISION_KIND_LOADED_VALUE));
  // Another array is another source.
  candidate.mutable_imprecisions(1)->set_source("perm");
  EXPECT_DOUBLE_EQ(scoreOf(candidate), 0.75 * 0.75);
  // Guard-only sources cost one penalty together, the heaviest.
  candidate.mutable_imprecisions(0)->set_guard_only(true);
  candidate.mutable_imprecisions(1)->set_guard_only(true);
  v1::Imprecision *pointer = candidate.add_imprecisions();
  pointer->set_kind(v1::IMPRECISION_KIND_UNRESOLVED_POINTER);
  pointer->set_detail("address not followed");
  pointer->set_guard_only(true);
  EXPECT_DOUBLE_EQ(scoreOf(candidate), penaltyOf(v1::IMPRECISION_KIND_UNRESOLVED_POINTER));
}

TEST(Ranking, IndexLoadsStillLowerTheScore) {
  auto result = analyzeCode(R"(
__global__ void scatter(const int *a, const int *b, const int *c, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[a[i] + b[i] + c[i]] = i;
}
int main() {
  int *a, *b, *c, *o;
  cudaMalloc(&a, 4096); cudaMalloc(&b, 4096); cudaMalloc(&c, 4096); cudaMalloc(&o, 4096);
  scatter<<<4, 256>>>(a, b, c, o, 1024);
}
)");
  ASSERT_FALSE(result.candidates().empty());
  for (const v1::RaceCandidate &c : result.candidates()) {
    EXPECT_NEAR(c.score(), 0.75 * 0.75 * 0.75, 1e-9) << c.DebugString();
    EXPECT_TRUE(c.below_threshold());
  }
}

TEST(Ranking, ThreadsStoringTheSameValueRaceBenignly) {
  auto result = analyzeCode(R"(
__global__ void anyNegative(const float *v, int *found, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && v[i] < 0.0f)
    *found = 1;
}
int main() { float *v; int *f; cudaMalloc(&v, 4096); cudaMalloc(&f, 4); anyNegative<<<4, 256>>>(v, f, 1024); }
)");
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
  ASSERT_FALSE(result.candidates().empty());
  for (const v1::RaceCandidate &c : result.candidates()) {
    EXPECT_NE(c.benign().find("same value"), std::string::npos) << c.DebugString();
    EXPECT_TRUE(c.below_threshold());
  }
}

TEST(Ranking, AnExchangeAndAStoreOfTheSameValueRaceBenignly) {
  // Some threads raise the flag with atomicExch, others with a plain
  // store: the flag ends up 1 either way. An exchange of another value
  // beside the store is a race.
  const char *code = R"(
__global__ void mark(const int *v, unsigned *flag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (v[i] < 0) atomicExch(flag, %s);
  else if (v[i] > 100) *flag = 1;
}
int main() { int *v; unsigned *f; cudaMalloc(&v, 4096); cudaMalloc(&f, 4); mark<<<4, 256>>>(v, f, 1024); }
)";
  char same[1024], other[1024];
  std::snprintf(same, sizeof(same), code, "1u");
  std::snprintf(other, sizeof(other), code, "2u");
  auto result = analyzeCode(same);
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
  EXPECT_TRUE(hasRaceBetween(analyzeCode(other), 5, 6));
}

TEST(Ranking, ThreadsStoringDifferentValuesRace) {
  auto result = analyzeCode(R"(
__global__ void classify(const float *v, int *status, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (v[i] < 0.0f) *status = 1;
  else *status = 2;
}
int main() { float *v; int *s; cudaMalloc(&v, 4096); cudaMalloc(&s, 4); classify<<<4, 256>>>(v, s, 1024); }
)");
  // Each store with itself is benign; the two stores with each other race.
  EXPECT_TRUE(hasRaceBetween(result, 5, 6)) << result.DebugString();
  EXPECT_FALSE(hasRaceBetween(result, 5, 5));
  EXPECT_FALSE(hasRaceBetween(result, 6, 6));
}

TEST(Ranking, ABlockVoteStoredByEveryThreadOfTheBlockIsBenign) {
  // __syncthreads_and gives the whole block one result; a thread's own
  // vote, stored where the block disagrees, differs from thread to thread.
  const char *code = R"(
__global__ void agree(const float *v, int *flag) {
  int vote = v[blockIdx.x * blockDim.x + threadIdx.x] > 0.5f;
  int all = __syncthreads_and(vote);
  flag[blockIdx.x] = %s;
}
int main() { float *v; int *f; cudaMalloc(&v, 1 << 20); cudaMalloc(&f, 4096); agree<<<64, 256>>>(v, f); }
)";
  char block[1024], own[1024];
  std::snprintf(block, sizeof(block), code, "all");
  std::snprintf(own, sizeof(own), code, "all ? 1 : vote");
  auto result = analyzeCode(block);
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
  ASSERT_FALSE(result.candidates().empty());
  for (const v1::RaceCandidate &c : result.candidates())
    EXPECT_NE(c.benign().find("same value"), std::string::npos) << c.DebugString();
  EXPECT_TRUE(hasRaceBetween(analyzeCode(own), 5, 5));
}

TEST(Ranking, OneFloatingPointConstantStoredByEveryThreadIsBenign) {
  // Rows that overlap (the pitch is half the row): `0.0f` from every
  // thread is the same bytes, and so is `0` converted to float. Two
  // different constants, or a converted thread number, race.
  const char *code = R"(
__global__ void clearRows(float *rows, int pitch, int half) {
  float *row = rows + blockIdx.x * pitch;
  if (threadIdx.x < half) row[threadIdx.x] = %s;
  else row[threadIdx.x] = %s;
}
int main() { float *r; cudaMalloc(&r, 1 << 20); clearRows<<<64, 256>>>(r, 128, 128); }
)";
  auto with = [&](const char *first, const char *second) {
    char text[1024];
    std::snprintf(text, sizeof(text), code, first, second);
    return analyzeCode(text);
  };
  auto same = with("0.0f", "0");
  EXPECT_TRUE(same.errors().empty()) << same.DebugString();
  EXPECT_TRUE(findings(same).empty()) << same.DebugString();
  ASSERT_FALSE(same.candidates().empty());
  for (const v1::RaceCandidate &c : same.candidates())
    EXPECT_NE(c.benign().find("same value"), std::string::npos) << c.DebugString();
  EXPECT_TRUE(hasRaceBetween(with("0.0f", "1.0f"), 4, 5));
  EXPECT_TRUE(hasRaceBetween(with("0.0f", "blockIdx.x"), 4, 5));
}

TEST(Ranking, AThreadIndexStoredByEveryThreadIsNotBenign) {
  auto result = analyzeCode(R"(
__global__ void findKey(const int *keys, int *position, int key, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && keys[i] == key) *position = i;
}
int main() { int *k, *p; cudaMalloc(&k, 4096); cudaMalloc(&p, 4); findKey<<<4, 256>>>(k, p, 7, 1024); }
)");
  ASSERT_FALSE(findings(result).empty()) << result.DebugString();
  for (const v1::RaceCandidate &c : findings(result))
    EXPECT_TRUE(c.benign().empty());
}

// A table the kernel only reads holds one value per element for all
// threads, a function pointer as much as a number.
const char *kDispatchTable = R"(
typedef float (*op_t)(float);
__device__ float twice(float v) { return 2 * v; } __device__ op_t twice_pointer = twice;
__device__ op_t table[2];
__device__ op_t chosen;
__device__ int factors[4];
__device__ int factor;
__global__ void apply(float *x, int mode) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  chosen = table[%s];
  factor = factors[%s];
  x[i] = (*chosen)(x[i]) * factor;
}
int main() { float *x; cudaMalloc(&x, 4096); apply<<<4, 256>>>(x, 1); }
)";

std::string dispatchKernel(const char *pointer_index, const char *factor_index) {
  char code[1024];
  std::snprintf(code, sizeof code, kDispatchTable, pointer_index, factor_index);
  return code;
}

TEST(Ranking, ElementsOfAReadOnlyTableAreOneValueForAllThreads) {
  auto result = analyzeCode(dispatchKernel("mode", "mode + 1"));
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
  // Both stores with themselves, and the pointer's store with the read of
  // another thread that stored it too.
  int benign = 0;
  for (const v1::RaceCandidate &c : result.candidates())
    benign += !c.benign().empty();
  EXPECT_GE(benign, 3) << result.DebugString();
}

TEST(Ranking, ElementsAThreadPicksByItsIndexDiffer) {
  auto result = analyzeCode(dispatchKernel("threadIdx.x % 2", "threadIdx.x % 4"));
  EXPECT_TRUE(hasRaceBetween(result, 10, 10)) << result.DebugString();
  EXPECT_TRUE(hasRaceBetween(result, 11, 11)) << result.DebugString();
  EXPECT_TRUE(hasRaceBetween(result, 10, 12)) << result.DebugString();
}

TEST(Ranking, ATableTheKernelWritesIsNotOneValue) {
  std::string code = dispatchKernel("mode", "mode");
  code.replace(code.find("  factor = factors"), 0, "  factors[threadIdx.x % 4] = threadIdx.x;\n");
  auto result = analyzeCode(code);
  EXPECT_TRUE(hasRaceBetween(result, 12, 12)) << result.DebugString();
}

} // namespace
} // namespace gpurace::analyzer::testing
