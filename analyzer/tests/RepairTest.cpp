// `gpurace fix`'s parts: text edits and their diff, repair candidates
// verified by re-analysis on real Clang and Z3, and the repaired program
// analyzed again from its text.
#include "analyzer/repair/RedundantBarriers.h"
#include "analyzer/repair/RepairMessages.h"
#include "analyzer/repair/Repairer.h"
#include "analyzer/repair/SourceEdits.h"
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

namespace gpurace::analyzer {
namespace {

using testing::TempSource;

TEST(SourceEdits, AppliesEditsInAnyOrderAndRejectsOverlaps) {
  std::string out;
  ASSERT_TRUE(applyEdits("abcdef", {{4, 1, "E"}, {0, 0, ">"}, {1, 2, "BC"}}, out));
  EXPECT_EQ(out, ">aBCdEf");
  EXPECT_FALSE(applyEdits("abcdef", {{1, 3, "x"}, {2, 1, "y"}}, out));
  EXPECT_FALSE(applyEdits("abc", {{2, 5, "x"}}, out));
}

// An edit made after others, as an edit of the text before them: moved by
// the growth of those wholly before it, refused inside text they inserted.
TEST(SourceEdits, EditBeforeEarlierEditsMovesBackOrIsRefusedInsideTheirText) {
  std::string original = "0123456789", once, twice;
  std::vector<TextEdit> earlier = {{2, 0, "ab"}, {6, 2, "X"}};
  ASSERT_TRUE(applyEdits(original, earlier, once)); // "01ab2345X89"
  for (TextEdit later : {TextEdit{0, 1, "z"}, TextEdit{4, 1, "z"}, TextEdit{9, 2, "z"},
                         TextEdit{4, 0, "z"}}) {
    std::optional<TextEdit> before = editBefore(later, earlier);
    ASSERT_TRUE(before) << later.offset;
    // Applying the mapped edit with the earlier ones gives the same text
    // as applying it after them.
    std::string together, in_order;
    std::vector<TextEdit> all = earlier;
    all.push_back(*before);
    ASSERT_TRUE(applyEdits(once, {later}, in_order));
    ASSERT_TRUE(applyEdits(original, all, together)) << before->offset;
    EXPECT_EQ(together, in_order) << later.offset;
  }
  EXPECT_FALSE(editBefore({3, 0, "z"}, earlier)); // between 'a' and 'b'
  EXPECT_FALSE(editBefore({7, 2, "z"}, earlier)); // over "5X"
  // Before "ab": among insertions at one offset, order is not kept.
  EXPECT_FALSE(editBefore({2, 0, "z"}, earlier));
}

// The same hunks as `diff -u` prints for these texts.
TEST(SourceEdits, UnifiedDiffShowsEachChangeWithItsContext) {
  std::string before, after;
  for (int i = 1; i <= 20; ++i) {
    before += "line " + std::to_string(i) + "\n";
    after += "line " + std::to_string(i) + "\n";
    if (i == 5)
      after += "inserted\n";
    if (i == 17)
      after.replace(after.rfind("line 17"), 7, "changed");
  }
  std::string diff = unifiedDiff("k.cu", before, after);
  EXPECT_EQ(diff, "--- k.cu\n+++ k.cu\n"
                  "@@ -3,6 +3,7 @@\n line 3\n line 4\n line 5\n+inserted\n line 6\n line 7\n"
                  " line 8\n"
                  "@@ -14,7 +15,7 @@\n line 14\n line 15\n line 16\n-line 17\n+changed\n"
                  " line 18\n line 19\n line 20\n");
  EXPECT_EQ(unifiedDiff("k.cu", before, before), "");
}

// Repairs `code` and analyzes the repaired text again.
struct Repaired {
  ProgramRepair repair;
  v1::AnalysisResult after;
  std::string text;
};

Repaired repairAndRecheck(const TempSource &source) {
  AnalyzeOptions options;
  options.files = {source.path()};
  Repaired out;
  std::string error;
  EXPECT_TRUE(repairProgram(options, out.repair, error)) << error;
  out.text = out.repair.files.count(source.path())
                 ? out.repair.files.at(source.path()).second
                 : "";
  if (!out.text.empty())
    options.replaced_contents[source.path()] = out.text;
  EXPECT_TRUE(analyze(options, out.after, error)) << error;
  return out;
}

TEST(Repair, MissingBarrierGetsOneBetweenTheAccessesThatEveryThreadReaches) {
  TempSource source(R"(
__global__ void shift(float *out) {
  __shared__ float tile[256];
  int t = threadIdx.x;
  tile[t] = t;
  if (t < 255) {
    out[t] = tile[t + 1];
  }
}
int main() { float *o; cudaMalloc(&o, 1024); shift<<<1, 256>>>(o); }
)");
  Repaired repaired = repairAndRecheck(source);
  ASSERT_FALSE(repaired.repair.outcomes.empty());
  for (const RepairOutcome &outcome : repaired.repair.outcomes)
    EXPECT_TRUE(outcome.repaired) << outcome.reason;
  // Before the branch, not inside it: a barrier only the threads below 255
  // reach is a barrier divergence, which verification rejects.
  EXPECT_NE(repaired.text.find("  tile[t] = t;\n  __syncthreads();\n  if (t < 255) {"),
            std::string::npos)
      << repaired.text;
  EXPECT_TRUE(testing::findings(repaired.after).empty());
  EXPECT_EQ(repaired.after.errors_size(), 0);
}

TEST(Repair, CounterIncrementBecomesAtomicAndRepairsEveryClassAtOnce) {
  TempSource source(R"(
__global__ void countPositive(const int *in, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0)
    count[0] += 1;
}
int main() { int *a, *c; cudaMalloc(&a, 4096); cudaMalloc(&c, 4);
  countPositive<<<4, 256>>>(a, c, 1024); }
)");
  Repaired repaired = repairAndRecheck(source);
  ASSERT_GE(repaired.repair.outcomes.size(), 2u);
  unsigned atomic = 0, shared = 0;
  for (const RepairOutcome &outcome : repaired.repair.outcomes) {
    EXPECT_TRUE(outcome.repaired) << outcome.reason;
    atomic += outcome.kind == "atomic";
    shared += !outcome.repaired_with.empty();
  }
  EXPECT_EQ(atomic, 1u);
  EXPECT_EQ(shared, repaired.repair.outcomes.size() - 1);
  EXPECT_NE(repaired.text.find("    atomicAdd(&count[0], 1);\n"), std::string::npos)
      << repaired.text;
  EXPECT_TRUE(testing::findings(repaired.after).empty());
}

TEST(Repair, PlainReadPollingAnAtomicCounterBecomesAnAtomicRead) {
  TempSource source(R"(
__global__ void churn(int *trash, unsigned int limit) {
  __shared__ unsigned int hits;
  atomicExch(&hits, 0);
  __syncthreads();
  while (hits < limit) {
    trash[blockIdx.x * blockDim.x + threadIdx.x] += 1;
    atomicAdd(&hits, 1);
  }
}
int main() { int *t; cudaMalloc(&t, 4096); churn<<<4, 256>>>(t, 1000); }
)");
  Repaired repaired = repairAndRecheck(source);
  ASSERT_FALSE(repaired.repair.outcomes.empty());
  for (const RepairOutcome &outcome : repaired.repair.outcomes)
    EXPECT_TRUE(outcome.repaired) << outcome.reason;
  EXPECT_EQ(repaired.repair.outcomes[0].kind, "atomic");
  EXPECT_NE(repaired.text.find("  while (atomicAdd(&hits, 0) < limit) {\n"), std::string::npos)
      << repaired.text;
  EXPECT_TRUE(testing::findings(repaired.after).empty());
}

TEST(Repair, RaceBetweenBlocksOnAPlainStoreIsNotRepairedAndSaysWhy) {
  TempSource source(R"(
__global__ void lastWins(const int *in, int *out) {
  out[0] = in[blockIdx.x * blockDim.x + threadIdx.x];
}
int main() { int *a, *o; cudaMalloc(&a, 4096); cudaMalloc(&o, 4);
  lastWins<<<4, 256>>>(a, o); }
)");
  Repaired repaired = repairAndRecheck(source);
  ASSERT_FALSE(repaired.repair.outcomes.empty());
  bool inter_block_explained = false;
  for (const RepairOutcome &outcome : repaired.repair.outcomes) {
    // A barrier cannot order two threads' stores of one statement.
    EXPECT_FALSE(outcome.repaired) << outcome.summary;
    if (outcome.finding.race_class() == v1::RACE_CLASS_INTER_BLOCK) {
      EXPECT_FALSE(outcome.repaired);
      inter_block_explained = outcome.reason.find("different blocks") != std::string::npos;
    }
  }
  EXPECT_TRUE(inter_block_explained);
  EXPECT_FALSE(testing::findings(repaired.after).empty());
}

TEST(Repair, InPlaceScanStepIsSplitIntoAGuardedReadABarrierAndAGuardedStore) {
  TempSource source(R"(
__global__ void scan(int *data) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = data[t];
  __syncthreads();
  for (int d = 1; d < 128; d *= 2) {
    if (t >= d) {
      s[t] += s[t - d];
    }
    __syncthreads();
  }
  data[t] = s[t];
}
int main() { int *d; cudaMalloc(&d, 512); scan<<<1, 128>>>(d); }
)");
  Repaired repaired = repairAndRecheck(source);
  ASSERT_FALSE(repaired.repair.outcomes.empty());
  for (const RepairOutcome &outcome : repaired.repair.outcomes)
    EXPECT_TRUE(outcome.repaired) << outcome.reason;
  // The guard is evaluated once, as before; the barrier is outside it.
  EXPECT_NE(repaired.text.find("    bool value_read_taken = t >= d;\n"
                               "    int value_read{};\n"
                               "    if (value_read_taken)\n"
                               "      value_read = s[t - d];\n"
                               "    __syncthreads();\n"
                               "    if (value_read_taken)\n"
                               "      s[t] += value_read;\n"
                               "    __syncthreads();\n"),
            std::string::npos)
      << repaired.text;
  EXPECT_TRUE(testing::findings(repaired.after).empty());
  EXPECT_EQ(repaired.after.errors_size(), 0);
}

TEST(Repair, BlockScopeFencesOfAHandOffBetweenBlocksAreWidenedTogether) {
  TempSource source(R"(
__global__ void publish(int *data, int *ready, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[3] = 7;
    __threadfence_block();
    atomicExch(ready, 1);
  } else if (blockIdx.x == 1) {
    while (atomicAdd(ready, 0) == 0) {
    }
    __threadfence_block();
    out[0] = data[3];
  }
}
int main() { int *d, *r, *o; cudaMalloc(&d, 64); cudaMalloc(&r, 4); cudaMalloc(&o, 4);
  publish<<<2, 32>>>(d, r, o); }
)");
  Repaired repaired = repairAndRecheck(source);
  ASSERT_FALSE(repaired.repair.outcomes.empty());
  EXPECT_TRUE(repaired.repair.outcomes[0].repaired) << repaired.repair.outcomes[0].reason;
  EXPECT_EQ(repaired.repair.outcomes[0].kind, "scope");
  // One fence alone does not order the hand-off: both are widened.
  EXPECT_EQ(repaired.text.find("__threadfence_block"), std::string::npos) << repaired.text;
  EXPECT_EQ(repaired.repair.outcomes[0].edits.size(), 2u);
  EXPECT_TRUE(testing::findings(repaired.after).empty());
}

TEST(Repair, DivergentBarrierIsTakenOutOfItsBranchBySplittingTheBranch) {
  TempSource source(R"(
__global__ void normalize(float *v, int count) {
  __shared__ float first;
  int t = threadIdx.x;
  if (t < count) {
    if (t == 0)
      first = v[0];
    __syncthreads();
    v[t] = v[t] / first;
  }
}
int main() { float *v; cudaMalloc(&v, 1024); normalize<<<1, 256>>>(v, 200); }
)");
  Repaired repaired = repairAndRecheck(source);
  ASSERT_FALSE(repaired.repair.outcomes.empty());
  bool divergence_repaired = false;
  for (const RepairOutcome &outcome : repaired.repair.outcomes) {
    EXPECT_TRUE(outcome.repaired) << outcome.reason;
    if (outcome.finding.race_class() == v1::RACE_CLASS_BARRIER_DIVERGENCE)
      divergence_repaired = outcome.kind == "barrier-moved";
  }
  EXPECT_TRUE(divergence_repaired);
  // Each thread runs what it ran before; every thread reaches the barrier.
  EXPECT_NE(repaired.text.find("  if (t < count) {\n"
                               "    if (t == 0)\n"
                               "      first = v[0];\n"
                               "  }\n"
                               "  __syncthreads();\n"
                               "  if (t < count) {\n"
                               "    v[t] = v[t] / first;\n"
                               "  }\n"),
            std::string::npos)
      << repaired.text;
  EXPECT_TRUE(testing::findings(repaired.after).empty());
  EXPECT_EQ(repaired.after.errors_size(), 0);
}

TEST(Repair, EarlyReturnBeforeABarrierBecomesGuardsAroundIt) {
  TempSource source(R"(
__global__ void rescale(float *x, int n) {
  __shared__ float top;
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= n)
    return;
  if (threadIdx.x == 0)
    top = x[blockIdx.x * blockDim.x];
  __syncthreads();
  x[g] /= top;
}
int main() { float *x; cudaMalloc(&x, 4000); rescale<<<4, 256>>>(x, 1000); }
)");
  Repaired repaired = repairAndRecheck(source);
  ASSERT_FALSE(repaired.repair.outcomes.empty());
  EXPECT_TRUE(repaired.repair.outcomes[0].repaired) << repaired.repair.outcomes[0].reason;
  EXPECT_NE(repaired.text.find("  int g = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "  if (g < n) {\n"
                               "    if (threadIdx.x == 0)\n"
                               "      top = x[blockIdx.x * blockDim.x];\n"
                               "  }\n"
                               "  __syncthreads();\n"
                               "  if (g < n) {\n"
                               "    x[g] /= top;\n"
                               "  }\n"
                               "}\n"),
            std::string::npos)
      << repaired.text;
  EXPECT_TRUE(testing::findings(repaired.after).empty());
  EXPECT_EQ(repaired.after.errors_size(), 0);
}

TEST(Repair, BranchIsNotSplitWhenItsFirstPartChangesTheCondition) {
  TempSource source(R"(
__global__ void drain(int *work, int *out) {
  __shared__ int left;
  int t = threadIdx.x;
  int todo = work[t];
  if (todo > 0) {
    todo = todo - 1;
    __syncthreads();
    out[t] = todo;
  }
}
int main() { int *w, *o; cudaMalloc(&w, 512); cudaMalloc(&o, 512); drain<<<1, 128>>>(w, o); }
)");
  Repaired repaired = repairAndRecheck(source);
  for (const RepairOutcome &outcome : repaired.repair.outcomes)
    if (outcome.repaired && outcome.kind == "barrier-moved")
      EXPECT_EQ(outcome.summary.find("split"), std::string::npos) << outcome.summary;
}

TEST(Repair, HandOffWithoutFencesGetsAFenceBeforeTheReleaseAndAfterTheAcquire) {
  TempSource source(R"(
__global__ void handOver(int *data, int *ready, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[5] = 11;
    atomicExch(ready, 1);
  } else if (blockIdx.x == 1) {
    while (atomicAdd(ready, 0) == 0) {
    }
    out[0] = data[5];
  }
}
int main() { int *d, *r, *o; cudaMalloc(&d, 64); cudaMalloc(&r, 4); cudaMalloc(&o, 4);
  handOver<<<2, 32>>>(d, r, o); }
)");
  Repaired repaired = repairAndRecheck(source);
  ASSERT_FALSE(repaired.repair.outcomes.empty());
  EXPECT_TRUE(repaired.repair.outcomes[0].repaired) << repaired.repair.outcomes[0].reason;
  EXPECT_EQ(repaired.repair.outcomes[0].kind, "fence");
  EXPECT_NE(repaired.text.find("    data[5] = 11;\n    __threadfence();\n    atomicExch"),
            std::string::npos)
      << repaired.text;
  EXPECT_NE(repaired.text.find("    }\n    __threadfence();\n    out[0] = data[5];"),
            std::string::npos)
      << repaired.text;
  EXPECT_TRUE(testing::findings(repaired.after).empty());
}

const char *kBlockSyncInsteadOfGrid = R"(#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void gather(int *partial, int *total) {
  if (threadIdx.x == 0)
    partial[blockIdx.x] = blockIdx.x + 1;
  cg::this_thread_block().sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int sum = 0;
    for (int b = 0; b < gridDim.x; ++b)
      sum += partial[b];
    *total = sum;
  }
}
)";

TEST(Repair, BlockSyncWhereTheGridMustWaitGetsAGridSyncThatNamesItsLaunch) {
  TempSource cooperative(std::string(kBlockSyncInsteadOfGrid) + R"(
int main() { int *p, *t; cudaMalloc(&p, 256); cudaMalloc(&t, 4);
  void *args[] = {&p, &t};
  cudaLaunchCooperativeKernel((void *)gather, 8, 64, args); }
)");
  Repaired repaired = repairAndRecheck(cooperative);
  ASSERT_FALSE(repaired.repair.outcomes.empty());
  const RepairOutcome &first = repaired.repair.outcomes[0];
  EXPECT_TRUE(first.repaired) << first.reason;
  EXPECT_EQ(first.kind, "grid-sync");
  EXPECT_EQ(first.prerequisite, "");
  EXPECT_NE(repaired.text.find("cooperative_groups::this_grid().sync();\n  if (blockIdx.x == 0"),
            std::string::npos)
      << repaired.text;
  EXPECT_TRUE(testing::findings(repaired.after).empty());

  TempSource plain(std::string(kBlockSyncInsteadOfGrid) + R"(
int main() { int *p, *t; cudaMalloc(&p, 256); cudaMalloc(&t, 4); gather<<<8, 64>>>(p, t); }
)");
  Repaired with_plain_launch = repairAndRecheck(plain);
  ASSERT_FALSE(with_plain_launch.repair.outcomes.empty());
  EXPECT_EQ(with_plain_launch.repair.outcomes[0].kind, "grid-sync");
  EXPECT_NE(with_plain_launch.repair.outcomes[0].prerequisite.find("gather<<<8, 64>>>"),
            std::string::npos)
      << with_plain_launch.repair.outcomes[0].prerequisite;
}

// Two repairs in one file: the second's edits and diff are in terms of the
// file as analyzed, so each applies to the user's checkout on its own.
TEST(Repair, EachRepairIsReportedAgainstTheFileAsAnalyzed) {
  TempSource source(R"(
__global__ void countA(const int *in, int *count) {
  if (in[threadIdx.x] > 0)
    count[0] += 1;
}
__global__ void countB(const int *in, int *count) {
  if (in[threadIdx.x] < 0)
    count[1] += 1;
}
int main() { int *a, *c; cudaMalloc(&a, 1024); cudaMalloc(&c, 8);
  countA<<<1, 256>>>(a, c); countB<<<1, 256>>>(a, c); }
)");
  Repaired repaired = repairAndRecheck(source);
  std::vector<v1::Repair> messages = repairMessages(repaired.repair);
  std::string original = repaired.repair.files.at(source.path()).first;
  std::vector<TextEdit> all;
  unsigned atomics = 0;
  for (const v1::Repair &message : messages) {
    if (message.kind() != v1::REPAIR_KIND_ATOMIC)
      continue;
    ++atomics;
    EXPECT_FALSE(message.builds_on_earlier());
    ASSERT_EQ(message.edits_size(), 1);
    const v1::TextReplacement &edit = message.edits(0);
    all.push_back({edit.offset(), edit.length(), edit.new_text()});
    // The replaced range is the statement as the original file has it.
    EXPECT_EQ(original.substr(edit.offset(), 2), "co");
    EXPECT_EQ(message.diff().find("--- " + source.path()), 0u) << message.diff();
    EXPECT_NE(message.diff().find("+    " + edit.new_text()), std::string::npos)
        << message.diff();
  }
  EXPECT_EQ(atomics, 2u);
  std::string applied;
  ASSERT_TRUE(applyEdits(original, all, applied));
  EXPECT_EQ(applied, repaired.text);
}

TEST(RedundantBarriers, OnlyTheBarrierNothingDependsOnIsListed) {
  TempSource source(R"(
__global__ void rotate(float *out) {
  __shared__ float tile[256];
  int t = threadIdx.x;
  tile[t] = t;
  __syncthreads();
  out[t] = tile[(t + 1) % 256];
  __syncthreads();
}
int main() { float *o; cudaMalloc(&o, 1024); rotate<<<1, 256>>>(o); }
)");
  AnalyzeOptions options;
  options.files = {source.path()};
  BarrierSearch search;
  std::string error;
  ASSERT_TRUE(findRedundantBarriers(options, search, error)) << error;
  EXPECT_EQ(search.checked, 2u);
  ASSERT_EQ(search.redundant.size(), 1u);
  EXPECT_EQ(search.redundant[0].location().line(), 8u);
  EXPECT_EQ(search.redundant[0].expression(), "__syncthreads()");
}

} // namespace
} // namespace gpurace::analyzer
