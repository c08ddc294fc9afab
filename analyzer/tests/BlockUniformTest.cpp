// Values the same for every thread of a block: __shared__ words that
// threads read between the same barriers of a kernel that never fences,
// loop values that every iteration keeps alike, and the iteration at which
// threads leave a loop together. Each claim is checked against the
// program that breaks it.
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace gpurace::analyzer::testing {
namespace {

// A reduction whose width thread 0 writes twice into shared memory: the
// loop bound every thread reads after the barriers is one value per block,
// so the barrier in the loop is reached by all of them.
const char *const kSharedWidthReduction = R"(
__global__ void reduce(unsigned *out, const unsigned *in) {
  __shared__ unsigned s[512];
  __shared__ unsigned width;
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 256 + tid];
  if (tid == 0) width = in[0];
  __syncthreads();
  if (tid == 0 && width > 256) width = 256;
  __syncthreads();
  for (unsigned d = width / 2; d > 0; d /= 2) {
    __syncthreads();
    if (tid < d) s[tid] += s[tid + d];
  }
  __syncthreads();
  if (tid == 0) out[blockIdx.x] = s[0];
}
int main() { unsigned *o, *i; cudaMalloc(&o, 64); cudaMalloc(&i, 4096); reduce<<<4, 256>>>(o, i); }
)";

TEST(BlockUniform, ASharedBoundReadBetweenTheSameBarriersIsOneValuePerBlock) {
  auto result = analyzeCode(kSharedWidthReduction);
  EXPECT_TRUE(result.errors().empty()) << result.DebugString();
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
}

TEST(BlockUniform, AFenceInTheKernelMakesSharedReadsPerThread) {
  // The same reduction with a fence: a lock could now order a write of
  // `width` between two threads' reads, so the reads are not taken to
  // agree and the loop's barrier may diverge.
  std::string fenced = kSharedWidthReduction;
  fenced.replace(fenced.find("  __syncthreads();\n  for"), 0, "  __threadfence_block();\n");
  auto result = analyzeCode(fenced);
  EXPECT_FALSE(findings(result, v1::RACE_CLASS_BARRIER_DIVERGENCE).empty())
      << result.DebugString();
}

TEST(BlockUniform, DeclvalInAnUnevaluatedOperandIsNoCallThroughAPointer) {
  // libcu++'s declval is a variable of function-pointer type: called in a
  // sizeof, it runs nothing, so it is no unknown callee that might fence,
  // and the leader every thread reads is one value per block.
  std::string kernel = R"(
#include <cuda/std/utility>
__global__ void lead(int *out, const int *in) {
  __shared__ int leader[2];
  if (threadIdx.x == 0) leader[0] = in[blockIdx.x] % blockDim.x;
  __syncthreads();
  int mine = leader[0] + 0 * UNEVALUATED;
  if (threadIdx.x == mine) out[blockIdx.x] = threadIdx.x;
}
int main() { int *o, *i; cudaMalloc(&o, 4096); cudaMalloc(&i, 4096); lead<<<64, 256>>>(o, i); }
)";
  auto with = [&](const std::string &unevaluated) {
    std::string code = kernel;
    code.replace(code.find("UNEVALUATED"), 11, unevaluated);
    return analyzeCode(code);
  };
  auto result = with("sizeof(cuda::std::declval<int>())");
  EXPECT_TRUE(result.errors().empty()) << result.DebugString();
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
  // A fence does make the reads per thread: two threads may both lead.
  EXPECT_FALSE(findings(with("(__threadfence_block(), 0)")).empty());
}

// Each round clears the shared `found` flag (every thread, or only thread
// 0: CLEAR) and counts matches a chunk at a time, with a scan whose
// barriers vary the loop's per-chunk count, until a chunk has one. `found`
// is read at the head of the chunk loop and by thread 0 after it.
const char *const kChunkSearch = R"(
__global__ void search(const int *keys, int *hits, int rounds, int key, int chunks) {
  __shared__ bool found; __shared__ int counts[256];
  for (int round = 0; round < rounds; ++round) {
    CLEAR
    for (int chunk = 0; chunk < chunks && !found; ++chunk) {
      counts[threadIdx.x] = keys[(round * chunks + chunk) * 256 + threadIdx.x] == key;
      __syncthreads();
      for (int step = 1; step < 256; step *= 2) {
        int add = threadIdx.x >= step ? counts[threadIdx.x - step] : 0;
        __syncthreads();
        counts[threadIdx.x] += add;
        __syncthreads();
      }
      if (counts[255] > 0) found = true;
      __syncthreads();
    }
    if (threadIdx.x == 0) hits[round] = found;
    __syncthreads();
  }
}
int main() {
  int *k, *h; cudaMalloc(&k, 1 << 20); cudaMalloc(&h, 64);
  search<<<1, 256>>>(k, h, 16, 7, (1000 + 255) / 256);
}
)";

std::string chunkSearchClearedBy(const std::string &clear) {
  std::string code = kChunkSearch;
  code.replace(code.find("CLEAR"), 5, clear);
  return code;
}

TEST(BlockUniform, AFlagEveryThreadClearedItselfIsItsOwnStoreAtTheFirstHead) {
  // The first chunk's head reads what the thread itself stored, false, so
  // the loop runs its first chunk, and its barrier orders the clearing
  // before thread 0's read after the loop.
  auto result = analyzeCode(chunkSearchClearedBy("found = false;"));
  EXPECT_TRUE(result.errors().empty()) << result.DebugString();
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
  // Cleared by thread 0 alone, the other threads' first test may see the
  // previous round's true before the store lands.
  auto racy = analyzeCode(chunkSearchClearedBy("if (threadIdx.x == 0) found = false;"));
  EXPECT_TRUE(hasRaceBetween(racy, 5, 6)) << racy.DebugString();
  // A barrier between the store and the read may let another thread's
  // store be the one read: the first head is no longer the thread's own.
  auto fenced = analyzeCode(chunkSearchClearedBy("found = false; __threadfence_block();"));
  EXPECT_FALSE(findings(fenced).empty()) << fenced.DebugString();
}

// Thread 0 publishes a row's sample; every thread skips the row's
// barriers when it is zero.
TEST(BlockUniform, AFloatingPointConstantIsOneValueForEveryThread) {
  auto result = analyzeCode(R"(
__global__ void rows(const float *samples, float *out) {
  __shared__ float sample;
  __shared__ float partial[256];
  if (threadIdx.x == 0) sample = samples[blockIdx.x];
  __syncthreads();
  float mine = sample;
  if (mine == 0.0f) return;
  partial[threadIdx.x] = mine * threadIdx.x;
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = partial[255 - threadIdx.x];
}
int main() { float *s, *o; cudaMalloc(&s, 256); cudaMalloc(&o, 1 << 18); rows<<<64, 256>>>(s, o); }
)");
  EXPECT_TRUE(result.errors().empty()) << result.DebugString();
  for (const v1::RaceCandidate &c : result.candidates())
    EXPECT_NE(c.race_class(), v1::RACE_CLASS_BARRIER_DIVERGENCE) << c.DebugString();
}

// Rounds that write slot `col + threadIdx.x`: `col` enters alike, and
// `next_col` is how the end of a round sets it for the next.
std::string roundsWhoseColumnEndsAs(const std::string &next_col) {
  return R"(
__global__ void rounds(int *out) {
  __shared__ int slots[512];
  int col = 0;
  for (int round = 0; round < 4; ++round) {
    slots[col + threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[round * 256 + threadIdx.x] = slots[threadIdx.x];
    __syncthreads();
    )" + next_col + R"(
  }
}
int main() { int *o; cudaMalloc(&o, 4096 * 4); rounds<<<1, 256>>>(o); }
)";
}

TEST(BlockUniform, ALoopThatReassignsAValuePerThreadIsNotTakenAlike) {
  // From round 1 odd threads are 5 ahead: threads 5 and 10 write slot 10.
  auto result = analyzeCode(roundsWhoseColumnEndsAs("col = (threadIdx.x & 1) * 5;"));
  EXPECT_TRUE(hasRaceBetween(result, 6, 6)) << result.DebugString();
  // Kept alike, the rounds are race-free.
  EXPECT_TRUE(findings(analyzeCode(roundsWhoseColumnEndsAs("col = 5;"))).empty());
}

TEST(BlockUniform, AValueSetOnlyAtAContinueIsNotTakenAlike) {
  // The path that continues carries a per-thread value into the next
  // round; the end of the body does not.
  auto result = analyzeCode(
      roundsWhoseColumnEndsAs("if (threadIdx.x & 1) { col = 5; continue; }\n    col = 0;"));
  EXPECT_TRUE(hasRaceBetween(result, 6, 6)) << result.DebugString();
}

TEST(BlockUniform, AVariableSteppedThroughALoopAllThreadsLeaveTogetherStaysAlike) {
  // `offset` doubles while the shared width halves; every thread leaves
  // the first loop in the same iteration, so after it `offset` is one
  // value, and the second loop's pairs stay apart.
  auto result = analyzeCode(R"(
__global__ void spread(unsigned *data, const unsigned *counts) {
  __shared__ unsigned s[1024];
  __shared__ unsigned width;
  unsigned tid = threadIdx.x;
  if (tid == 0) width = counts[blockIdx.x] % 512;
  __syncthreads();
  unsigned offset = 1;
  for (unsigned d = width; d > 1; d /= 2)
    offset += 1;
  s[offset * 256 + tid] = data[tid];
  __syncthreads();
  data[tid] = s[offset * 256 + (tid + 1) % 256];
}
int main() { unsigned *d, *c; cudaMalloc(&d, 4096); cudaMalloc(&c, 64); spread<<<1, 256>>>(d, c); }
)");
  EXPECT_TRUE(result.errors().empty()) << result.DebugString();
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
}

TEST(BlockUniform, TheStepsOfAnUpSweepWhoseWidthIsSharedAreProvedApart) {
  // The corpus's up-sweep of a work-efficient scan over a width thread 0
  // keeps in shared memory: in one step every thread has the same
  // `offset`, and `offset * (2t + 2) - 1` never meets `offset * (2t' + 1) -
  // 1`. Every pair is decided: no candidate is left, not even below the
  // threshold.
  v1::AnalysisResult result = analyzeCorpusFile("barrier-loop/tree_sum_shared_width_ok.cu");
  EXPECT_TRUE(result.errors().empty()) << result.DebugString();
  EXPECT_EQ(result.kernels_analyzed(), 1u);
  EXPECT_EQ(result.candidates_size(), 0) << result.DebugString();
}

TEST(BlockUniform, ACountThatStartsAlikeAndAddsABlocksTotalIsOnePerBlock) {
  // `found` starts at 0 in every thread and adds the block's total, which
  // thread 0 shares after a barrier: one value per block, so the barrier
  // under `found < 3` is reached by the whole block. Adding a value of the
  // thread's own splits the block at that barrier.
  const char *code = R"(
__global__ void firstFew(const int *in, int *out, int n) {
  __shared__ int total;
  int found = 0;
  for (int p = threadIdx.x; p < n; p += 256) {
    if (threadIdx.x == 0) total = in[blockIdx.x * n + p];
    __syncthreads();
    if (found < 3) {
      __syncthreads();
      found += %s;
    }
    out[blockIdx.x * n + p] = found;
    __syncthreads();
  }
}
int main() { int *i, *o; cudaMalloc(&i, 1 << 20); cudaMalloc(&o, 1 << 20); firstFew<<<64, 256>>>(i, o, 1024); }
)";
  char block[1024], own[1024];
  std::snprintf(block, sizeof block, code, "total");
  std::snprintf(own, sizeof own, code, "total + (threadIdx.x & 1)");
  auto proved = analyzeCode(block);
  EXPECT_TRUE(proved.errors().empty()) << proved.DebugString();
  EXPECT_TRUE(findings(proved).empty()) << proved.DebugString();
  auto split = analyzeCode(own);
  auto divergent = findings(split, v1::RACE_CLASS_BARRIER_DIVERGENCE);
  ASSERT_FALSE(divergent.empty()) << split.DebugString();
  EXPECT_EQ(divergent.front().first().location().line(), 9u);
}

TEST(BlockUniform, ALoopWithoutBarriersInADivergentBranchLeavesSharedReadsAlike) {
  // Threads below `active` count in a loop of their own; the others skip
  // it. Neither passes a barrier there, so both reach the sweep after the
  // same barriers, read the same `width`, and run the same steps: the
  // barrier in the sweep is reached by the whole block and its steps are
  // proved apart. A barrier in the counting loop would split the block.
  const char *code = R"(
__global__ void rounds(const float *values, unsigned n, unsigned *out) {
  __shared__ unsigned flags[257];
  __shared__ unsigned width;
  __shared__ unsigned active;
  if (threadIdx.x == 0) { width = 2; active = 1; }
  __syncthreads();
  while (true) {
    unsigned count = 0;
    if (threadIdx.x < active)
      for (unsigned k = 0; k < n; ++k) {
        STEP_END
        count += values[k] < 0.5f ? 1 : 0;
      }
    flags[threadIdx.x] = count;
    __syncthreads();
    if (width > 128) break;
    unsigned offset = 1;
    for (unsigned d = width >> 1; d > 0; d >>= 1) {
      __syncthreads();
      if (threadIdx.x < d)
        flags[offset * (2 * threadIdx.x + 2) - 1] += flags[offset * (2 * threadIdx.x + 1) - 1];
      offset <<= 1;
    }
    __syncthreads();
    out[threadIdx.x] = flags[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) { active = width; width = 2 * width; }
    __syncthreads();
  }
}
int main() { float *v; unsigned *o; cudaMalloc(&v, 4096); cudaMalloc(&o, 4096); rounds<<<1, 256>>>(v, 1024, o); }
)";
  auto proved = analyzeReplacing(code, "STEP_END", "");
  EXPECT_TRUE(proved.errors().empty()) << proved.DebugString();
  EXPECT_TRUE(findings(proved).empty()) << proved.DebugString();
  for (const v1::RaceCandidate &candidate : proved.candidates())
    for (const v1::Imprecision &why : candidate.imprecisions())
      EXPECT_NE(why.kind(), v1::IMPRECISION_KIND_LOOP_OVERAPPROXIMATED) << candidate.DebugString();
  auto split = analyzeReplacing(code, "STEP_END", "__syncthreads();");
  EXPECT_FALSE(findings(split, v1::RACE_CLASS_BARRIER_DIVERGENCE).empty()) << split.DebugString();
}

TEST(BlockUniform, AWitnessThroughAPointerIntoASharedArrayStaysWithinTheArray) {
  // The corpus's compaction rounds without the down-sweep's barrier: the
  // scan runs in a helper on `flags + 1` over a width thread 0 keeps in
  // shared memory, which nothing bounds. Each witness names one of the 257
  // elements the array has, not one a width of thousands would reach.
  AnalyzeOptions options;
  // Effort alone decides, as on a quiet machine: no wall-clock cap.
  options.query_timeout_ms = 600000;
  v1::AnalysisResult result =
      analyzeCorpusFile("loop-induction/compaction_scan_after_count_loop_race.cu", options);
  EXPECT_TRUE(result.errors().empty()) << result.DebugString();
  std::vector<v1::RaceCandidate> races = findings(result);
  ASSERT_FALSE(races.empty()) << result.DebugString();
  for (const v1::RaceCandidate &race : races) {
    ASSERT_TRUE(race.has_witness()) << race.DebugString();
    EXPECT_GE(race.witness().byte_offset(), 0) << race.DebugString();
    EXPECT_LT(race.witness().byte_offset(), 257 * 4) << race.DebugString();
  }
}

TEST(BlockUniform, EveryReadOfABroadcastSeesTheSameValue) {
  // Thread 0 broadcasts `width`; the guard and both subscripts read it
  // again. With one value, only threads below the width run, and `t * w +
  // 2 == t' * w + 1` needs w == 1, where only thread 0 does: race-free.
  auto result = analyzeCode(R"(
__global__ void shifts(unsigned *out, const unsigned *sizes) {
  __shared__ unsigned flags[257];
  __shared__ unsigned width;
  flags[threadIdx.x] = out[threadIdx.x];
  if (threadIdx.x == 0) width = sizes[0];
  __syncthreads();
  if (threadIdx.x < width)
    flags[1 + threadIdx.x * width] = flags[2 + threadIdx.x * width];
  __syncthreads();
  out[threadIdx.x] = flags[threadIdx.x];
}
int main() { unsigned *o, *s; cudaMalloc(&o, 4096); cudaMalloc(&s, 16); shifts<<<1, 256>>>(o, s); }
)");
  EXPECT_TRUE(result.errors().empty()) << result.DebugString();
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
}

} // namespace
} // namespace gpurace::analyzer::testing
