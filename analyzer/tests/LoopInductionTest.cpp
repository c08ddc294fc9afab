// Variables a loop steps by a fixed amount (in while and do-while loops, a
// second counter beside the for counter, pointer walks) hold start + k *
// step in iteration k, those it doubles or halves are tied to one 2^k (a
// scan's two sweeps), and loops whose iterations synchronize unequally
// still order the iterations of a thread's block.
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace gpurace::analyzer::testing {
namespace {

TEST(LoopInduction, GridStrideWhileLoopIsRaceFree) {
  auto result = analyzeCode(R"(
__global__ void zero(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (i < n) { a[i] = 0; i += blockDim.x * gridDim.x; }
}
int main() { float *a; cudaMalloc(&a, 4096 * 4); zero<<<4, 256>>>(a, 4096); }
)");
  EXPECT_TRUE(result.errors().empty()) << result.DebugString();
  EXPECT_EQ(result.candidates_size(), 0) << result.DebugString();
}

TEST(LoopInduction, BlockStrideWhileLoopRacesWithAWitnessTheStepAllows) {
  auto result = analyzeCode(R"(
__global__ void scale(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (i < n) { a[i] *= 2; i += blockDim.x; }
}
int main() { float *a; cudaMalloc(&a, 4096 * 4); scale<<<4, 256>>>(a, 4096); }
)");
  auto races = findings(result, v1::RACE_CLASS_INTER_BLOCK);
  ASSERT_FALSE(races.empty()) << result.DebugString();
  // Threads of different blocks meet only at an element both reach: a
  // multiple of the step past each one's start.
  const v1::Witness &w = races.front().witness();
  int64_t element = w.byte_offset() / 4;
  for (const v1::ThreadCoord &t : {w.first(), w.second()}) {
    int64_t start = t.block_idx().x() * 256 + t.thread_idx().x();
    EXPECT_GE(element, start) << w.DebugString();
    EXPECT_EQ((element - start) % 256, 0) << w.DebugString();
  }
  EXPECT_TRUE(findings(result, v1::RACE_CLASS_INTRA_BLOCK).empty()) << result.DebugString();
}

TEST(LoopInduction, SecondCounterAndPointerWalksStayPerThread) {
  auto result = analyzeCode(R"(
__global__ void columns(float *m, const int *src, int *dst, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  int offset = 0;
  for (int r = 0; r < rows; ++r) { m[offset + c] += 1; offset += cols; }
  const int *from = src + c;
  int *to = dst + c;
  int left = rows;
  do { *to = *from; from += cols; to += cols; } while (--left > 0);
}
int main() {
  float *m; int *s, *d;
  cudaMalloc(&m, 1 << 20); cudaMalloc(&s, 1 << 20); cudaMalloc(&d, 1 << 20);
  columns<<<8, 128>>>(m, s, d, 64, 1000);
}
)");
  EXPECT_TRUE(result.errors().empty()) << result.DebugString();
  EXPECT_EQ(result.candidates_size(), 0) << result.DebugString();
}

TEST(LoopInduction, AStepAContinueCanSkipIsNotAnInductionVariable) {
  // `j` is stepped only in iterations that do not continue: it can stay
  // behind, so two threads' j may meet.
  auto result = analyzeCode(R"(
__global__ void compact(const int *in, int *out, int n) {
  int j = threadIdx.x;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    if (in[i] == 0) continue;
    out[j] = in[i];
    j += 1;
  }
}
int main() { int *i, *o; cudaMalloc(&i, 4096); cudaMalloc(&o, 4096); compact<<<1, 64>>>(i, o, 1024); }
)");
  EXPECT_FALSE(findings(result, v1::RACE_CLASS_INTRA_WARP).empty()) << result.DebugString();
}

TEST(LoopInduction, AnIncrementInsideASubscriptIsAnInductionVariable) {
  // A merge writes its output at `out[n++]` once per iteration of a loop
  // it leaves by a break: n is the iteration count, so each thread stays
  // inside its own run of `run` elements as long as the loop runs fewer
  // iterations than that.
  const char *kernel = R"(
__global__ void merge(const int *in, int *out, int run) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * run;
  int *dst = out + base;
  int n = 0, taken = 0;
  while (true) {
    dst[n++] = in[base + taken];
    if (in[base + taken] < 0) taken += 1;
    if (n == LIMIT) break;
  }
}
int main() { int *i, *o; cudaMalloc(&i, 1 << 20); cudaMalloc(&o, 1 << 20); merge<<<2, 64>>>(i, o, 8); }
)";
  auto inside = analyzeReplacing(kernel, "LIMIT", "run");
  EXPECT_TRUE(inside.errors().empty()) << inside.DebugString();
  EXPECT_EQ(inside.candidates_size(), 0) << inside.DebugString();
  auto past = analyzeReplacing(kernel, "LIMIT", "run + 1");
  EXPECT_FALSE(findings(past, v1::RACE_CLASS_INTRA_WARP).empty()) << past.DebugString();
}

TEST(LoopInduction, ABreakAfterTheStepLeavesTheSteppedValue) {
  // Each thread stores four elements of its own eight and breaks after the
  // fourth step (or leaves by the test that follows it): j is start + 4
  // after the loop, not start + 3.
  const char *kernel = R"(
__global__ void tail(int *a, int n) {
  int j = threadIdx.x * 8;
  for (int i = 0; i < n; ++i) {
    a[j++] = 1;
    if (i == 3) break;
  }
  a[j + PAST] = 2;
}
int main() { int *a; cudaMalloc(&a, 4096); tail<<<1, 64>>>(a, 4); }
)";
  // start + 7: the last of the thread's own eight.
  auto own = analyzeReplacing(kernel, "PAST", "3");
  EXPECT_TRUE(own.errors().empty()) << own.DebugString();
  EXPECT_EQ(own.candidates_size(), 0) << own.DebugString();
  // start + 8: the next thread's first element.
  auto next = analyzeReplacing(kernel, "PAST", "4");
  auto races = findings(next, v1::RACE_CLASS_INTRA_WARP);
  ASSERT_FALSE(races.empty()) << next.DebugString();
  const v1::Witness &w = races.front().witness();
  EXPECT_EQ(w.byte_offset() / 4 % 8, 0) << w.DebugString();
}

TEST(LoopInduction, TheIterationThatBreaksOutRunsToItsBreak) {
  // Every thread leaves `while (true)` in its sixth iteration, by the
  // break, after storing to the one shared word.
  auto result = analyzeCode(R"(
__global__ void last(int *word) {
  int i = 0;
  while (true) {
    if (i == 5) { word[0] = threadIdx.x; break; }
    i++;
  }
}
int main() { int *w; cudaMalloc(&w, 4); last<<<1, 64>>>(w); }
)");
  EXPECT_FALSE(findings(result, v1::RACE_CLASS_INTRA_WARP).empty()) << result.DebugString();
}

TEST(LoopInduction, ACounterBumpedThenDoubledKeepsItsDistanceToAPower) {
  // `d += 1` in the body and `d <<= 1` in the increment: d + 2 doubles in
  // each iteration while offset halves, so the test on d stops the loop
  // before offset reaches 0 (where every thread's ai would be -1).
  const char *kernel = R"(
__global__ void downSweep(int *data) {
  __shared__ int s[256];
  s[threadIdx.x] = data[threadIdx.x];
  int offset = 256;
  for (int d = 0; d < BOUND; d <<= 1) {
    d += 1;
    offset >>= 1;
    __syncthreads();
    if (threadIdx.x < d) {
      int ai = offset * (threadIdx.x + 1) - 1;
      s[ai + (offset >> 1)] += s[ai];
    }
  }
  __syncthreads();
  data[threadIdx.x] = s[threadIdx.x];
}
int main() { int *d; cudaMalloc(&d, 1024); downSweep<<<1, 256>>>(d); }
)";
  auto stops = analyzeReplacing(kernel, "BOUND", "128");
  EXPECT_TRUE(stops.errors().empty()) << stops.DebugString();
  EXPECT_EQ(stops.candidates_size(), 0) << stops.DebugString();
  // Three more iterations: offset is 0 in the last, and all threads meet
  // at s[-1].
  auto past = analyzeReplacing(kernel, "BOUND", "1024");
  EXPECT_FALSE(findings(past, v1::RACE_CLASS_INTRA_WARP).empty()) << past.DebugString();
}

TEST(LoopInduction, NoIterationRunsPastTheOneWhoseTestBreaks) {
  // The loop's own test allows 16 iterations; `i == LAST` breaks in
  // iteration LAST, so a thread stores at most LAST + 1 of its 8 slots.
  const char *kernel = R"(
__global__ void fill(int *lists, int n) {
  int j = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  for (int i = 0; i < n; ++i) {
    lists[j + i] = i;
    if (i == LAST) break;
  }
}
int main() { int *l; cudaMalloc(&l, 1 << 16); fill<<<4, 64>>>(l, 16); }
)";
  auto inside = analyzeReplacing(kernel, "LAST", "7");
  EXPECT_TRUE(inside.errors().empty()) << inside.DebugString();
  EXPECT_EQ(inside.candidates_size(), 0) << inside.DebugString();
  auto past = analyzeReplacing(kernel, "LAST", "8");
  auto races = findings(past, v1::RACE_CLASS_INTRA_WARP);
  ASSERT_FALSE(races.empty()) << past.DebugString();
  // The ninth store of a thread is the next thread's first.
  EXPECT_EQ(races.front().witness().byte_offset() / 4 % 8, 0)
      << races.front().witness().DebugString();
}

TEST(LoopInduction, BarriersInAnInnerLoopOrderTheOuterIterations) {
  const char *kernel = R"(
__global__ void passes(float *data, int tiles, int sweeps) {
  __shared__ float tile[128];
  for (int t = 0; t < tiles; ++t) {
    for (int s = 0; s < sweeps; ++s) {
      tile[threadIdx.x] = data[t * 128 + threadIdx.x];
      __syncthreads();
      data[t * 128 + threadIdx.x] = tile[(threadIdx.x + 1) % 128];
      SECOND_BARRIER
    }
  }
}
int main() { float *d; cudaMalloc(&d, 1 << 20); passes<<<1, 128>>>(d, 64, 3); }
)";
  auto ordered = analyzeReplacing(kernel, "SECOND_BARRIER", "__syncthreads();");
  EXPECT_EQ(ordered.candidates_size(), 0) << ordered.DebugString();
  auto racy = analyzeReplacing(kernel, "SECOND_BARRIER", "");
  auto races = findings(racy, v1::RACE_CLASS_INTRA_BLOCK);
  ASSERT_FALSE(races.empty()) << racy.DebugString();
  EXPECT_EQ(races.front().first().location().line(), 6u);
}

TEST(LoopInduction, AFlagSetInTheIterationThatBreaksKeepsThatIterationsValue) {
  // Each step narrows the threads that compute; the loop leaves by its
  // break in the last step, so `computed` after it is the last step's
  // range, whose blocks' outputs do not overlap. Breaking a step earlier
  // leaves the wider range, whose neighbours overlap.
  const std::string code = R"(
__global__ void step(const int *src, int *dst, int iteration, int cols) {
  __shared__ int prev[16], result[16];
  int tx = threadIdx.x;
  int x = (16 - 2 * iteration) * blockIdx.x - iteration + tx;
  if (x >= 0 && x < cols) prev[tx] = src[x];
  __syncthreads();
  bool computed;
  for (int i = 0; i < iteration; i++) {
    computed = false;
    if (tx >= i + 1 && tx <= 16 - i - 2) {
      computed = true;
      result[tx] = prev[tx - 1] + prev[tx] + prev[tx + 1];
    }
    __syncthreads();
    if (i == LAST) break;
    if (computed) prev[tx] = result[tx];
    __syncthreads();
  }
  if (computed && x >= 0 && x < cols) dst[x] = result[tx];
}
int main() {
  int *a, *b;
  cudaMalloc(&a, 4096 * 4); cudaMalloc(&b, 4096 * 4);
  step<<<342, 16>>>(a, b, 2, 4096);
}
)";
  auto last = analyzeReplacing(code, "LAST", "iteration - 1");
  EXPECT_GT(last.pairs_checked(), 0);
  EXPECT_TRUE(findings(last).empty()) << last.DebugString();
  EXPECT_FALSE(findings(analyzeReplacing(code, "LAST", "iteration - 2"),
                        v1::RACE_CLASS_INTER_BLOCK)
                   .empty());
}

TEST(LoopInduction, EachBreakLeavesTheValuesOfItsOwnPath) {
  // A walk with two exits: past the row's end (no column to write) and in
  // the last round (the round's column). After the loop the column is the
  // exit round's wherever the thread writes. When the first exit clamps
  // the column and still writes, threads of a warp share the last column.
  const std::string code = R"(
__global__ void walk(const float *in, float *out, int width, int rounds) {
  int col = threadIdx.x;
  bool inside = false;
  float sum = 0;
  for (int r = 0; r < rounds; ++r) {
    col = r * blockDim.x + threadIdx.x;
    if (col >= width) { PAST_END; break; }
    inside = true;
    sum += in[blockIdx.x * width + col];
    if (r == rounds - 1) break;
  }
  if (inside) out[blockIdx.x * width + col] = sum;
}
int main() {
  float *a, *b;
  cudaMalloc(&a, 64 * 1000 * 4); cudaMalloc(&b, 64 * 1000 * 4);
  walk<<<64, 128>>>(a, b, 1000, 8);
}
)";
  auto stops = analyzeReplacing(code, "PAST_END", "inside = false");
  EXPECT_GT(stops.pairs_checked(), 0);
  EXPECT_TRUE(findings(stops).empty()) << stops.DebugString();
  auto clamps = analyzeReplacing(code, "PAST_END", "col = width - 1; inside = true");
  auto races = findings(clamps, v1::RACE_CLASS_INTRA_WARP);
  ASSERT_FALSE(races.empty()) << clamps.DebugString();
  // Both threads write the row's last column.
  EXPECT_EQ(races.front().witness().byte_offset() % (1000 * 4), 999 * 4)
      << races.front().witness().DebugString();
}

// A block's exclusive scan of `n` elements, n/2 threads: the up-sweep
// doubles `offset` while `d` halves, the down-sweep halves `offset` while
// `d` doubles.
std::string exclusiveScanOfSize(const std::string &n) {
  return R"(
__global__ void scan(unsigned *v, unsigned n) {
  __shared__ unsigned s[1024];
  unsigned t = threadIdx.x;
  s[2 * t] = v[2 * t]; s[2 * t + 1] = v[2 * t + 1];
  unsigned offset = 1;
  for (unsigned d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) s[offset * (2 * t + 2) - 1] += s[offset * (2 * t + 1) - 1];
    offset *= 2;
  }
  if (t == 0) s[n - 1] = 0;
  for (unsigned d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      unsigned a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
      unsigned x = s[a]; s[a] = s[b]; s[b] += x;
    }
  }
  __syncthreads();
  v[2 * t] = s[2 * t]; v[2 * t + 1] = s[2 * t + 1];
}
int main() { unsigned *v; cudaMalloc(&v, 4096); scan<<<1, )" + n + R"( / 2>>>(v, )" + n + R"(); }
)";
}

TEST(LoopInduction, ADownSweepHalvesItsOffsetOnlyToOneForAPowerOfTwoSize) {
  // The doubled `offset` and the halved `d` are tied to one 2^k per step:
  // the up-sweep leaves offset above n/2, so for n = 512 the down-sweep's
  // offset is at least 1 while d < n, and the steps' indices never meet.
  auto proved = analyzeCode(exclusiveScanOfSize("512"));
  EXPECT_TRUE(proved.errors().empty()) << proved.DebugString();
  EXPECT_EQ(proved.candidates_size(), 0) << proved.DebugString();
  // For n = 96 the up-sweep leaves offset 64, and in the step with d = 64
  // offset is 0: every active thread swaps element -1.
  auto racy = analyzeCode(exclusiveScanOfSize("96"));
  auto races = findings(racy);
  ASSERT_FALSE(races.empty()) << racy.DebugString();
  EXPECT_EQ(races.front().witness().byte_offset(), -4) << races.front().witness().DebugString();
}

TEST(LoopInduction, ADownSweepFromTwoBelowTheWidthIsRaceFreeForAnyWidth) {
  // The corpus's other arrangement of the down-sweep (offset halved before
  // each step, d doubled from 2, threads t < d - 1): the up-sweep's offset
  // and the down-sweep's d are powers of two, so offset >= d there whatever
  // the width. Proved with and without the host's width.
  for (bool host_facts : {true, false}) {
    AnalyzeOptions options;
    options.host_facts = host_facts;
    v1::AnalysisResult result = analyzeCorpusFile("loop-induction/scan_down_sweep_ok.cu", options);
    EXPECT_TRUE(result.errors().empty()) << result.DebugString();
    EXPECT_EQ(result.candidates_size(), 0) << "host facts " << host_facts << result.DebugString();
  }
}

TEST(LoopInduction, AThreadThatReturnsInsideALoopWithBreaksIsStillChecked) {
  // Thread 0 never leaves the loop by its break: it returns from inside
  // after its store. What the break leaves says nothing of such a thread,
  // whose store still races with the other threads' reads after the loop.
  auto result = analyzeCode(R"(
__global__ void hand(int *out) {
  for (int r = 0;; ++r) {
    if (threadIdx.x == 0) { out[0] = r; return; }
    if (r == 3) break;
  }
  out[1 + threadIdx.x] = out[0];
}
int main() { int *a; cudaMalloc(&a, 64 * 4); hand<<<1, 32>>>(a); }
)");
  auto races = findings(result, v1::RACE_CLASS_INTRA_WARP);
  ASSERT_FALSE(races.empty()) << result.DebugString();
  EXPECT_EQ(races.front().witness().byte_offset(), 0) << races.front().witness().DebugString();
}

TEST(LoopInduction, ALoopOfConstantBoundsHoldsKnownValuesInEachIteration) {
  // `off` halves from 128 while `d` doubles from 1: with `d < 128` the
  // loop runs 7 times and its last iteration has `off` 1, so thread t
  // writes `a[t]` there and the read after the loop (no barrier between)
  // meets only its own write. Stopped one step early, the last `off` is 2
  // and thread t's write of a[2t] meets thread 2t's read.
  const char *code = R"(
__global__ void steps(int *out) {
  __shared__ int a[128];
  int t = threadIdx.x;
  a[t] = 0;
  int off = 128;
  for (int d = 1; d < %s; d *= 2) {
    off >>= 1;
    __syncthreads();
    if (t < d)
      a[off * t] += 1;
  }
  out[t] = a[t];
}
int main() { int *o; cudaMalloc(&o, 4096); steps<<<1, 128>>>(o); }
)";
  char full[1024], early[1024];
  std::snprintf(full, sizeof full, code, "128");
  std::snprintf(early, sizeof early, code, "64");
  auto proved = analyzeCode(full);
  EXPECT_TRUE(proved.errors().empty()) << proved.DebugString();
  EXPECT_EQ(proved.candidates_size(), 0) << proved.DebugString();
  auto racy = analyzeCode(early);
  auto found = findings(racy);
  ASSERT_FALSE(found.empty()) << racy.DebugString();
  EXPECT_EQ(found.front().witness().byte_offset() % 8, 0) << found.front().DebugString();
}

TEST(LoopInduction, ABoolTheLoopWritesStaysABoolAfterIt) {
  // The flag flips in every iteration, alike for all threads; after the
  // loop it picks a slot per thread either way.
  auto result = analyzeCode(R"(
__global__ void pick(float *out, int n, int passes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool front = true;
  for (int p = 0; p < passes; ++p)
    front = !front;
  if (i < n)
    out[front ? i : n + i] = 1.0f;
}
int main() { float *o; cudaMalloc(&o, 1 << 20); pick<<<64, 256>>>(o, 1 << 14, 5); }
)");
  EXPECT_TRUE(result.errors().empty()) << result.DebugString();
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
}

TEST(LoopInduction, ALoopOfNoIterationsHidesNoRace) {
  // `for (w = 1; w < W; ++w)` with W == 1, as a library's loop over the
  // further words of a one-word value: no thread enters it, and the store
  // after it still races (every race of the kernel was dropped before).
  const char *code = R"(
template <int W>
__device__ void spill(int *a) {
  for (int w = 1; w < W; ++w) a[w] = 0;
}
__global__ void publish(int *a) {
  spill<%s>(a);
  a[%s] = threadIdx.x;
}
int main() { int *a; cudaMalloc(&a, 4096); publish<<<1, 64>>>(a); }
)";
  char racy_text[512], free_text[512];
  std::snprintf(racy_text, sizeof racy_text, code, "1", "0");
  std::snprintf(free_text, sizeof free_text, code, "1", "64 + threadIdx.x");
  auto racy = analyzeCode(racy_text);
  EXPECT_TRUE(racy.errors().empty()) << racy.DebugString();
  EXPECT_TRUE(hasRaceBetween(racy, 8, 8)) << racy.DebugString();
  auto race_free = analyzeCode(free_text);
  EXPECT_TRUE(findings(race_free).empty()) << race_free.DebugString();
}

TEST(LoopInduction, AVariableResetAtTheEndOfEachIterationHoldsItsEntryValue) {
  // `w` walks the block's columns in an inner loop and is set back to the
  // thread's own column before the next iteration, as it entered: each
  // iteration's first store is the thread's own element. Set back to
  // another column, the next iteration's store lands on a neighbour's.
  const char *code = R"(
__global__ void walk(int *out, int n) {
  int t = threadIdx.x, w = t;
  for (int k = 0; k < n; ++k) {
    out[blockIdx.x * 256 + w] += k;
    while (w < 256) w += blockDim.x;
    w = %s;
  }
}
int main() { int *o; cudaMalloc(&o, 1 << 16); walk<<<8, 128>>>(o, 4); }
)";
  char own[1024], other[1024];
  std::snprintf(own, sizeof own, code, "t");
  std::snprintf(other, sizeof other, code, "t + 1");
  auto proved = analyzeCode(own);
  EXPECT_TRUE(proved.errors().empty()) << proved.DebugString();
  EXPECT_EQ(proved.candidates_size(), 0) << proved.DebugString();
  auto racy = analyzeCode(other);
  EXPECT_TRUE(hasRaceBetween(racy, 5, 5)) << racy.DebugString();
}

TEST(LoopInduction, AStepOfATemplatesArgumentIsInvariant) {
  // `at` steps by `ROWS * width`, ROWS a template argument: an induction
  // variable, as with a literal. Stepped by one row less, the next
  // iteration's rows meet another thread's.
  const char *code = R"(
template <int ROWS, int TILE>
__global__ void copyTile(int width, int height, const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x >= width) return;
  for (int i = 0, at = y * width + x; i < TILE / ROWS; ++i, at += %s * width)
    if (y + i * ROWS < height)
      out[at] = in[at] + i;
}
int main(int argc, char **argv) {
  int w = atoi(argv[1]), h = atoi(argv[2]);
  float *a, *b;
  cudaMalloc(&a, w * h * 4); cudaMalloc(&b, w * h * 4);
  copyTile<8, 32><<<dim3((w + 31) / 32, (h + 31) / 32), dim3(32, 8)>>>(w, h, a, b);
}
)";
  char rows[2048], fewer[2048];
  std::snprintf(rows, sizeof rows, code, "ROWS");
  std::snprintf(fewer, sizeof fewer, code, "(ROWS - 1)");
  auto proved = analyzeCode(rows);
  EXPECT_TRUE(proved.errors().empty()) << proved.DebugString();
  EXPECT_EQ(proved.candidates_size(), 0) << proved.DebugString();
  auto racy = analyzeCode(fewer);
  EXPECT_TRUE(hasRaceBetween(racy, 9, 9)) << racy.DebugString();
}

// An im2col-style column pointer: stepped only in the innermost of two
// counted loops, so each iteration of the outer one advances it by a whole
// row of steps. Pixel p writes columns p, p + hw, p + 2 hw, ...: apart from
// every other pixel's when the step is hw, not when it is hw - 1.
std::string columnWalk(const char *step) {
  char code[1024];
  std::snprintf(code, sizeof code, R"(
__global__ void columns(const float *in, float *cols, int hw, int kh, int kw) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= hw) return;
  float *c = cols + p;
  for (int i = 0; i < kh; ++i)
    for (int j = 0; j < kw; ++j) {
      *c = in[p + i + j];
      c += %s;
    }
}
int main() {
  float *in, *cols;
  cudaMalloc(&in, 1 << 20); cudaMalloc(&cols, 1 << 24);
  columns<<<16, 256>>>(in, cols, 4096, 3, 3);
}
)",
                step);
  return code;
}

TEST(LoopInduction, AStepInAnInnerLoopAdvancesTheOuterLoopByItsTripCount) {
  auto apart = analyzeCode(columnWalk("hw"));
  EXPECT_TRUE(apart.errors().empty()) << apart.DebugString();
  EXPECT_EQ(apart.candidates_size(), 0) << apart.DebugString();
  auto overlapping = analyzeCode(columnWalk("hw - 1"));
  auto races = findings(overlapping);
  ASSERT_FALSE(races.empty()) << overlapping.DebugString();
  for (const v1::Imprecision &imprecision : races.front().imprecisions())
    EXPECT_EQ(imprecision.detail().find("over-approximated"), std::string::npos)
        << races.front().DebugString();
}

TEST(LoopInduction, AnInnerLoopThatCanBreakStepsNoOuterInductionVariable) {
  // A break makes the inner trip count unknown: the pointer is
  // over-approximated, and the race-free walk is no longer proved.
  std::string code = columnWalk("hw");
  code.replace(code.find("c += hw;"), 8, "c += hw; if (in[p] < 0) break;");
  auto result = analyzeCode(code);
  bool over_approximated = false;
  for (const v1::RaceCandidate &candidate : result.candidates())
    for (const v1::Imprecision &imprecision : candidate.imprecisions())
      over_approximated |= imprecision.detail().find("'c' in a loop is over-approximated") !=
                           std::string::npos;
  EXPECT_TRUE(over_approximated) << result.DebugString();
}

// A tree reduction over an odd-sized block keeps last round's width in
// `old_n` (`old_n = n, n /= 2`) to add the element the pairing left out.
std::string oddReduction(const std::string &start, const std::string &old_start) {
  std::string code = R"(
__global__ void sums(const float *in, float *out) {
  __shared__ float s[198];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 198 + t];
  __syncthreads();
  for (int n = START, old_n = OLD; n > 0; old_n = n, n /= 2) {
    if (t < n) {
      s[t] += s[t + n];
      if (t == n - 1 && old_n % 2 != 0)
        s[t] += s[old_n - 1];
    }
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 20); cudaMalloc(&out, 1 << 12);
  sums<<<4, 198>>>(in, out);
}
)";
  code.replace(code.find("START"), 5, start);
  code.replace(code.find("OLD"), 3, old_start);
  return code;
}

TEST(LoopInduction, ACopyTakenBeforeAHalvingIsTwiceTheHalvedValue) {
  // old_n is 2n or 2n + 1 at every head, so s[old_n - 1] lies above all
  // that the round writes.
  auto result = analyzeCode(oddReduction("99", "198"));
  EXPECT_TRUE(result.errors().empty()) << result.DebugString();
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
}

TEST(LoopInduction, ACopyThatDoesNotStartAtTwiceTheValueIsNotTiedToIt) {
  // With n = 64 and old_n = 63 on entry, thread 63 reads s[62] in the
  // first round while thread 62 writes it: the relation holds from the
  // second round on only, and is not stated.
  auto result = analyzeCode(oddReduction("64", "63"));
  EXPECT_TRUE(hasRaceBetween(result, 9, 11)) << result.DebugString();
}

// A row filter that walks a pointer forwards and back by a byte step,
// over rows `pitch` bytes apart.
std::string byteWalk(const std::string &pitch) {
  std::string code = R"(
__device__ void smooth(float *line, unsigned len, int step) {
  float *c = line;
  float prev = *c;
  for (unsigned n = 1; n < len; n++) {
    c = (float *)((char *)c + step);
    *c = prev = 0.5f * *c + prev;
  }
  for (int n = len - 2; 0 <= n; n--) {
    c = (float *)((char *)c - step);
    *c = prev = 0.5f * (prev - *c);
  }
}
__global__ void rows(float *image, unsigned pitch, unsigned width, unsigned height) {
  unsigned y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y < height)
    smooth((float *)((char *)image + y * pitch), width, sizeof(float));
}
int main() {
  float *image;
  cudaMalloc(&image, 100 * 300 * sizeof(float));
  rows<<<5, 64>>>(image, PITCH, 100, 300);
}
)";
  code.replace(code.find("PITCH"), 5, pitch);
  return code;
}

TEST(LoopInduction, APointerSteppedByBytesStaysInItsRow) {
  // The forward pass leaves the pointer len - 1 steps on, no more (the
  // loop's exit is its first failing test), and the backward pass brings
  // it back.
  auto apart = analyzeCode(byteWalk("100 * sizeof(float)"));
  EXPECT_TRUE(apart.errors().empty()) << apart.DebugString();
  EXPECT_EQ(apart.candidates_size(), 0) << apart.DebugString();
  // Rows a float short share an element: the last of one is the first of
  // the next, read (line 4) before the next row's thread writes its last.
  auto shared = analyzeCode(byteWalk("99 * sizeof(float)"));
  auto races = findings(shared);
  ASSERT_FALSE(races.empty()) << shared.DebugString();
  EXPECT_TRUE(hasRaceBetween(shared, 4, 7)) << shared.DebugString();
  for (const v1::RaceCandidate &race : races) {
    const v1::Witness &w = race.witness();
    uint32_t first = w.first().block_idx().x() * 64 + w.first().thread_idx().x();
    uint32_t second = w.second().block_idx().x() * 64 + w.second().thread_idx().x();
    EXPECT_EQ(first > second ? first - second : second - first, 1u) << race.DebugString();
  }
}

// Per-block partial histograms: a pixel's byte channels decoded into a
// register array by a short loop, then counted at 256 * c + bins[c] of the
// block's own partition of %d counters, which the block clears after its
// barrier. Each channel's bins stay below 256, so partitions of 1024 keep
// to themselves; those of 512 do not.
const char *const kChannelBins = R"(
__global__ void bins(const uchar4 *pixels, int count, unsigned int *partitions) {
  unsigned int *mine = partitions + blockIdx.x * %d;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) {
    uchar4 pixel = pixels[i];
    unsigned char samples[4] = {pixel.x, pixel.y, pixel.z, pixel.w};
    unsigned int bins[3];
    for (int c = 0; c < 3; ++c)
      bins[c] = samples[c];
    for (int c = 0; c < 3; ++c)
      atomicAdd(&mine[256 * c + bins[c]], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < %d; b += blockDim.x)
    mine[b] = 0;
}
int main() {
  uchar4 *pixels; unsigned int *partitions;
  cudaMalloc(&pixels, 4096 * sizeof(uchar4));
  cudaMalloc(&partitions, 17 * 1024 * sizeof(unsigned int));
  bins<<<16, 256>>>(pixels, 4096, partitions);
}
)";

TEST(LoopInduction, AShortLoopOverRegistersKeepsEachElement) {
  char fits[2048], overflows[2048];
  std::snprintf(fits, sizeof fits, kChannelBins, 1024, 1024);
  std::snprintf(overflows, sizeof overflows, kChannelBins, 512, 512);
  auto race_free = analyzeCode(fits);
  EXPECT_TRUE(race_free.errors().empty()) << race_free.DebugString();
  EXPECT_TRUE(findings(race_free).empty()) << race_free.DebugString();
  auto racy = findings(analyzeCode(overflows), v1::RACE_CLASS_INTER_BLOCK);
  ASSERT_FALSE(racy.empty());
  // The third channel reaches the next block's partition: an element past
  // the writer's 512.
  const v1::Witness &w = racy.front().witness();
  EXPECT_NE(w.first().block_idx().x(), w.second().block_idx().x()) << racy.front().DebugString();
  // The pixel's four channels are one loaded value, not four.
  int loaded = 0;
  for (const v1::Imprecision &imprecision : racy.front().imprecisions()) {
    EXPECT_NE(imprecision.kind(), v1::IMPRECISION_KIND_UNMODELED_EXPRESSION)
        << racy.front().DebugString();
    loaded += imprecision.kind() == v1::IMPRECISION_KIND_LOADED_VALUE;
  }
  EXPECT_EQ(loaded, 1) << racy.front().DebugString();
}

// A row of 16 lanes whose first lane alone stores, in each of 4 layers, at
// its cursor, which it alone steps: the step is in a branch whose
// condition the loop never changes. With a step of twice the 8 rows each
// row's cursor keeps to its own slots of the block's 64; with half the rows
// row 0's second layer lands on row 4's first.
const char *const kLeaderCursor = R"(
__global__ void leaders(float *out, const float *in) {
  unsigned lane = threadIdx.x, row = threadIdx.y;
  unsigned cursor = row + 64 * blockIdx.x;
  for (int layer = 0; layer < 4; ++layer) {
    float v = in[(blockIdx.x * 4 + layer) * 128 + row * 16 + lane];
    if (LEADER) {
      THEN
    } else {
      ELSE
    }
  }
}
int main() {
  float *out, *in;
  cudaMalloc(&out, 8 * 64 * sizeof(float));
  cudaMalloc(&in, 8 * 4 * 128 * sizeof(float));
  leaders<<<8, dim3(16, 8)>>>(out, in);
}
)";

std::string leaderCursor(const std::string &leader, const std::string &step,
                         bool in_else = false) {
  std::string store = "out[cursor] = v; cursor += " + step + ";";
  std::string code = kLeaderCursor;
  code.replace(code.find("LEADER"), 6, leader);
  code.replace(code.find("THEN"), 4, in_else ? "v = 0;" : store);
  code.replace(code.find("ELSE"), 4, in_else ? store : "v = 0;");
  return code;
}

TEST(LoopInduction, AStepUnderAnInvariantGuardIsTakenByTheThreadsItHoldsFor) {
  auto apart = analyzeCode(leaderCursor("lane == 0", "16"));
  EXPECT_TRUE(apart.errors().empty()) << apart.DebugString();
  EXPECT_TRUE(findings(apart).empty()) << apart.DebugString();
  // The same step in the else branch: taken where the guard fails.
  auto apart_else = analyzeCode(leaderCursor("lane != 0", "16", true));
  EXPECT_TRUE(findings(apart_else).empty()) << apart_else.DebugString();
  // Rows 0 and 4 meet, two warps of one block.
  auto overlapping = analyzeCode(leaderCursor("lane == 0", "4"));
  auto races = findings(overlapping, v1::RACE_CLASS_INTRA_BLOCK);
  ASSERT_FALSE(races.empty()) << overlapping.DebugString();
  for (const v1::Imprecision &imprecision : races.front().imprecisions())
    EXPECT_NE(imprecision.kind(), v1::IMPRECISION_KIND_LOOP_OVERAPPROXIMATED)
        << races.front().DebugString();
  // A guard the loop reads from memory each iteration is no such guard.
  auto loaded = analyzeCode(leaderCursor("in[layer] > 0 && lane == 0", "16"));
  EXPECT_FALSE(findings(loaded).empty()) << loaded.DebugString();
}

// Thread t compacts the positive values of its own len = lens[t] (at most
// 8) samples into its own 9 slots and closes them with a zero at slots[n]:
// the count is stepped only where a value is kept (KEEP), and the thread
// leaves the loop where its own test fails.
const char *const kCompaction = R"(
__global__ void compact(const float *in, const int *lens, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float *mine = in + t * 8;
  float *slots = out + t * 9;
  int len = min(lens[t], 8);
  int n = 0;
  for (int i = 0; i < len; ++i)
    if (mine[i] > 0) {
      KEEP
    }
  slots[n] = 0;
}
int main() {
  float *in, *out; int *lens;
  cudaMalloc(&in, 256 * 8 * sizeof(float));
  cudaMalloc(&lens, 256 * sizeof(int));
  cudaMalloc(&out, 256 * 9 * sizeof(float));
  compact<<<2, 128>>>(in, lens, out);
}
)";

TEST(LoopInduction, ACountSteppedAtMostOncePerIterationStaysBelowTheIterationCount) {
  auto code = [](const std::string &keep) {
    std::string text = kCompaction;
    text.replace(text.find("KEEP"), 4, keep);
    return text;
  };
  auto once = analyzeCode(code("slots[n++] = mine[i];"));
  EXPECT_TRUE(once.errors().empty()) << once.DebugString();
  EXPECT_TRUE(findings(once).empty()) << once.DebugString();
  // Twice per kept value, n reaches 16: past the thread's slots.
  auto twice = analyzeCode(code("slots[n++] = mine[i]; slots[n++] = 0;"));
  EXPECT_FALSE(findings(twice).empty()) << twice.DebugString();
  // Stepped in an inner loop, the count is not bounded by the outer one.
  auto inner = analyzeCode(code("for (int r = 0; r < 2; ++r) slots[n++] = mine[i];"));
  EXPECT_FALSE(findings(inner).empty()) << inner.DebugString();
}

} // namespace
} // namespace gpurace::analyzer::testing
