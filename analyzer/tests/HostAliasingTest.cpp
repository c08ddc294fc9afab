// Which pointer arguments of a launch may share a buffer, as the host code
// shows it, and launch dims built from dim3 fields.
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace gpurace::analyzer::testing {
namespace {

const char *kWrapperWithoutCaller = R"(
__global__ void shift(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) out[i] = in[i + 1];
}
void launchShift(const float *in, float *out, int n) {
  shift<<<(n + 255) / 256, 256>>>(in, out, n);
}
)";

TEST(HostAliasing, WrapperParametersWithoutACallerAreDistinctAndSaySo) {
  auto result = analyzeCode(kWrapperWithoutCaller);
  EXPECT_EQ(result.candidates_size(), 0) << result.DebugString();
  bool stated = false;
  for (const v1::RaceFreedomProof &proof : result.race_freedom_proofs())
    for (const v1::Assumption &a : proof.assumptions())
      stated |= a.kind() == v1::HOST_FACT_KIND_ANALYSIS &&
                a.description().find("assumes 'in' and 'out' do not overlap") == 0;
  EXPECT_TRUE(stated) << result.DebugString();
}

TEST(HostAliasing, RawPointersOfDeviceVectorsAreTheVectorsBuffers) {
  // A wrapper takes device vectors by reference and launches on their
  // raw pointers, one of them one element in (thrust's device pointer and
  // cast, declared here as the library declares them). With no caller,
  // two vectors are distinct buffers, as two pointer parameters would be;
  // a caller that passes one vector twice overlaps.
  const std::string code = R"(
namespace thrust {
template <typename T> struct device_ptr { device_ptr operator+(long n) const; };
template <typename T> struct device_vector { device_ptr<T> data(); };
template <typename T> T *raw_pointer_cast(device_ptr<T> pointer);
}
__global__ void copy(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) out[i] = in[i];
}
void launchShift(thrust::device_vector<float> &in, thrust::device_vector<float> &out, int n) {
  copy<<<(n + 255) / 256, 256>>>(thrust::raw_pointer_cast(in.data() + 1),
                                 thrust::raw_pointer_cast(out.data()), n);
}
)";
  auto alone = analyzeCode(code);
  EXPECT_EQ(alone.candidates_size(), 0) << alone.DebugString();
  bool stated = false;
  for (const v1::RaceFreedomProof &proof : alone.race_freedom_proofs())
    for (const v1::Assumption &a : proof.assumptions())
      stated |= a.description().find("assumes 'in' and 'out' do not overlap") == 0;
  EXPECT_TRUE(stated) << alone.DebugString();
  auto same = analyzeCode(code + "void run(thrust::device_vector<float> &v) { "
                                 "launchShift(v, v, 1000); }\n");
  EXPECT_FALSE(findings(same, v1::RACE_CLASS_INTER_BLOCK).empty()) << same.DebugString();
}

TEST(HostAliasing, AssumeAliasingChecksWrapperParametersAsOverlapping) {
  AnalyzeOptions options;
  options.assume_aliasing = true;
  auto result = analyzeCode(kWrapperWithoutCaller, options);
  EXPECT_FALSE(findings(result, v1::RACE_CLASS_INTER_BLOCK).empty()) << result.DebugString();
  EXPECT_TRUE(result.options().assume_aliasing());
}

TEST(HostAliasing, EachCallerOfAWrapperIsItsOwnContextAndNamed) {
  std::string code = std::string(kWrapperWithoutCaller) + R"(
int main() {
  float *a, *b;
  cudaMalloc(&a, 1 << 20); cudaMalloc(&b, 1 << 20);
  launchShift(a, b, 1000);
  launchShift(b, b, 1000);
}
)";
  auto lineOf = [&](const std::string &text) {
    return 1 + std::count(code.begin(), code.begin() + code.find(text), '\n');
  };
  auto result = analyzeCode(code);
  auto races = findings(result, v1::RACE_CLASS_INTER_BLOCK);
  ASSERT_EQ(races.size(), 1u) << result.DebugString();
  ASSERT_EQ(races.front().launch_site().called_from_size(), 1) << result.DebugString();
  // The in-place call, not the one with two buffers.
  EXPECT_EQ(races.front().launch_site().called_from(0).line() - races.front().first().location().line(),
            lineOf("launchShift(b, b") - lineOf("out[i] = in"));
  EXPECT_EQ(races.front().launch_site().called_from(0).function(), "main");
}

// A kernel that races only where `out` overlaps `in`.
const char *kShift = R"(
__global__ void shift(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) out[i] = in[i + 1];
}
)";

// `host` (launching kShift, with a COPY placeholder) is race-free as it
// stands and racy once `copy` makes one argument a copy of the other.
void expectSeparateUnlessCopied(const std::string &host, const std::string &copy) {
  std::string code = kShift + host;
  auto separate = analyzeReplacing(code, "COPY", "");
  EXPECT_EQ(separate.candidates_size(), 0) << separate.DebugString();
  auto copied = analyzeReplacing(code, "COPY", copy);
  EXPECT_FALSE(findings(copied, v1::RACE_CLASS_INTER_BLOCK).empty()) << copied.DebugString();
}

TEST(HostAliasing, FieldsOfAnArrayOfPlansAreSeparateAllocationsUnlessCopied) {
  expectSeparateUnlessCopied(R"(
struct Plan { float *src; float *dst; };
int main() {
  Plan plan[2];
  for (int p = 0; p < 2; ++p) {
    cudaMalloc(&plan[p].src, 1 << 20);
    cudaMalloc(&plan[p].dst, 1 << 20);
  }
  COPY
  shift<<<4, 256>>>(plan[1].src, plan[0].dst, 1024);
}
)",
                             "plan[1].src = plan[0].dst;");
}

TEST(HostAliasing, FieldsOfAStructParameterWithoutACallerAreSeparate) {
  // No caller: the fields are taken as separate buffers; a caller that sets
  // one field from the other makes them one.
  expectSeparateUnlessCopied(R"(
struct Buffers { float *src; float *dst; };
void step(Buffers &b) { shift<<<4, 256>>>(b.src, b.dst, 1024); }
COPY
)",
                             "int main() { float *p; cudaMalloc(&p, 1 << 20); Buffers b; "
                             "b.src = p; b.dst = p; step(b); }");
}

TEST(HostAliasing, FieldsOfAStructParameterFollowTheCallersStruct) {
  expectSeparateUnlessCopied(R"(
struct Buffers { float *src; float *dst; };
void step(const Buffers *b) { shift<<<4, 256>>>(b->src, b->dst, 1024); }
int main() {
  Buffers b;
  cudaMalloc(&b.src, 1 << 20);
  cudaMalloc(&b.dst, 1 << 20);
  COPY
  step(&b);
}
)",
                             "b.dst = b.src;");
}

TEST(HostAliasing, ElementsOfAVectorOfAllocationsAreSeparateUnlessCopied) {
  expectSeparateUnlessCopied(R"(
#include <vector>
int main() {
  std::vector<float *> bufs(2);
  for (int b = 0; b < 2; ++b) cudaMalloc(&bufs[b], 1 << 20);
  COPY
  shift<<<4, 256>>>(bufs[1], bufs[0], 1024);
}
)",
                             "bufs.back() = bufs.front();");
}

TEST(HostAliasing, AVectorElementHandedAPointerJustAllocatedForItIsItsOwnBuffer) {
  // `float *p; cudaMalloc(&p, n); bufs[b] = p;` is `cudaMalloc(&bufs[b], n)`,
  // unless the pointer is kept for another use as well.
  expectSeparateUnlessCopied(R"(
#include <vector>
int main() {
  std::vector<float *> bufs(2);
  float *kept = nullptr;
  for (int b = 0; b < 2; ++b) {
    float *fresh;
    cudaMalloc(&fresh, 1 << 20);
    bufs[b] = fresh;
    COPY
  }
  shift<<<4, 256>>>(bufs[1], bufs[0], 1024);
}
)",
                             "kept = fresh;");
}

TEST(HostAliasing, AnElementSetFromAnotherPointerMayBeThatBuffer) {
  expectSeparateUnlessCopied(R"(
int main() {
  float *buf[2], *other;
  for (int b = 0; b < 2; ++b) cudaMalloc(&buf[b], 1 << 20);
  cudaMalloc(&other, 1 << 20);
  COPY
  shift<<<4, 256>>>(buf[1], other, 1024);
}
)",
                             "buf[1] = other;");
}

TEST(HostAliasing, GlobalPointersAreSeparateAllocationsUnlessCopied) {
  expectSeparateUnlessCopied(R"(
float *d_in[2];
float *d_out;
void setUp() {
  for (int s = 0; s < 2; ++s) cudaMalloc(&d_in[s], 1 << 20);
  cudaMalloc(&d_out, 1 << 20);
  COPY
}
void run(int s) { shift<<<4, 256>>>(d_in[s], d_out, 1024); }
)",
                             "d_out = d_in[1];");
}

TEST(HostAliasing, BuffersExchangedByAStepLoopStayApart) {
  // Each step reads one buffer and writes the other, then the two change
  // places: by std::swap, or both pairs of a sort's keys and values
  // through one temporary. No step passes one buffer twice. COPY makes two
  // of the names equal before the loop, which the exchange keeps.
  expectSeparateUnlessCopied(R"(
#include <utility>
int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  COPY
  for (int step = 0; step < 8; ++step) {
    shift<<<4, 256>>>(in, out, 1024);
    std::swap(in, out);
  }
  shift<<<4, 256>>>(in, out, 1024);
}
)",
                             "out = in;");
  expectSeparateUnlessCopied(R"(
void sortSteps(float *dst, float *buf, float *dstv, float *bufv, int stages) {
  float *ikey, *okey, *ival, *oval;
  if (stages & 1) { ikey = buf; okey = dst; ival = bufv; oval = dstv; }
  else { ikey = dst; okey = buf; ival = dstv; oval = bufv; }
  COPY
  for (int s = 0; s < stages; ++s) {
    shift<<<4, 256>>>(ikey, okey, 1024);
    shift<<<4, 256>>>(ival, oval, 1024);
    float *t;
    t = ikey; ikey = okey; okey = t;
    t = ival; ival = oval; oval = t;
  }
}
)",
                             "okey = ikey;");
}

TEST(HostAliasing, EveryPairALoopExchangesStaysApartInOneLaunch) {
  // One launch passes two pairs that one step loop exchanges, each through
  // a temporary of its own, as lattice codes swap their distribution
  // buffers. Each pair's exchange is a fact of its own.
  expectSeparateUnlessCopied(R"(
__global__ void shiftBoth(const float *a_in, float *a_out, const double *b_in, double *b_out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a_out[i + 1] = a_in[i];
  b_out[i + 1] = b_in[i];
}
int main() {
  float *a0, *a1;
  double *b0, *b1;
  cudaMalloc(&a0, 1 << 20); cudaMalloc(&a1, 1 << 20);
  cudaMalloc(&b0, 1 << 20); cudaMalloc(&b1, 1 << 20);
  COPY
  for (int step = 0; step < 8; ++step) {
    shiftBoth<<<4, 256>>>(a0, a1, b0, b1);
    float *ta = a1;
    double *tb = b1;
    a1 = a0;
    b1 = b0;
    a0 = ta;
    b0 = tb;
  }
}
)",
                             "b1 = b0;");
}

TEST(HostAliasing, ARaceFreeVerdictNamesTheExchangeThatKeepsBuffersApart) {
  auto result = analyzeCode(std::string(kShift) + R"(
#include <utility>
int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  for (int step = 0; step < 8; ++step) {
    shift<<<4, 256>>>(in, out, 1024);
    std::swap(in, out);
  }
}
)");
  EXPECT_EQ(result.candidates_size(), 0) << result.DebugString();
  bool together = false, exchange = false;
  for (const v1::RaceFreedomProof &proof : result.race_freedom_proofs())
    for (const v1::Assumption &a : proof.assumptions()) {
      together |= a.description().find("in and out never point into one buffer") !=
                  std::string::npos;
      exchange |= a.description().find("loop: only exchanges the values of 'in', 'out'") == 0;
    }
  EXPECT_TRUE(together && exchange) << result.DebugString();
}

TEST(HostAliasing, ElementsOfABufferArrayByExchangedIndicesStayApart) {
  // Two allocations in an array, read and written by indices a step loop
  // exchanges through a temporary: the indices always differ.
  expectSeparateUnlessCopied(R"(
int run(float *bufs[2], int steps) {
  int src = 1, dst = 0;
  for (int t = 0; t < steps; ++t) {
    int temp = src;
    src = dst;
    dst = temp;
    shift<<<4, 256>>>(bufs[src], bufs[dst], 1024);
  }
  return dst;
}
int main() {
  float *bufs[2];
  cudaMalloc(&bufs[0], 1 << 20);
  cudaMalloc(&bufs[1], 1 << 20);
  COPY
  return run(bufs, 10);
}
)",
                             "bufs[1] = bufs[0];");
}

TEST(HostAliasing, ArgumentsFromOneChosenBufferKeepTheirDistance) {
  // `in` is one of two buffers, chosen on a path; `out` is the same
  // pointer one element on. Thread i writes element i + 1 and reads
  // element i + 1: no two threads meet, which only the distance between
  // the two arguments shows. Two elements on, thread i writes what thread
  // i + 1 reads.
  const std::string code = std::string(kShift) + R"(
int main(int argc, char **argv) {
  float *a, *b;
  cudaMalloc(&a, 1 << 20);
  cudaMalloc(&b, 1 << 20);
  float *in = argc > 1 ? a : b;
  shift<<<4, 256>>>(in, in + STEP, 1000);
}
)";
  auto apart = analyzeReplacing(code, "STEP", "1");
  EXPECT_EQ(apart.candidates_size(), 0) << apart.DebugString();
  auto racy = analyzeReplacing(code, "STEP", "2");
  auto races = findings(racy);
  ASSERT_FALSE(races.empty()) << racy.DebugString();
  for (const v1::Imprecision &imprecision : races.front().imprecisions())
    EXPECT_NE(imprecision.kind(), v1::IMPRECISION_KIND_UNKNOWN_ALIASING)
        << races.front().DebugString();
}

TEST(HostAliasing, AnExchangeThatCanBeCutShortIsNotOne) {
  // `continue` between the two halves of the exchange leaves both names
  // on one buffer in the next iteration.
  auto result = analyzeCode(std::string(kShift) + R"(
int main(int argc, char **argv) {
  float *in, *out, *t;
  cudaMalloc(&in, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  for (int step = 0; step < 8; ++step) {
    shift<<<4, 256>>>(in, out, 1024);
    t = in;
    in = out;
    if (argc > step) continue;
    out = t;
  }
}
)");
  EXPECT_FALSE(findings(result, v1::RACE_CLASS_INTER_BLOCK).empty()) << result.DebugString();
}

TEST(HostAliasing, OneParameterPassedTwiceByAWrapperAliases) {
  auto result = analyzeCode(std::string(kShift) + R"(
void shiftInPlace(float *data, int n) { shift<<<4, 256>>>(data, data, n); }
)");
  EXPECT_FALSE(findings(result, v1::RACE_CLASS_INTER_BLOCK).empty()) << result.DebugString();
}

TEST(HostAliasing, GridBuiltFromBlockFieldsKeepsItsValue) {
  const char *code = R"(
__global__ void row(float *a, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  a[x] += 1;
  if (x == 0) a[w] = 0;
}
int main() {
  int w = 4096;
  float *a;
  cudaMalloc(&a, 2 * w * sizeof(float));
  GRID
  row<<<grid, block>>>(a, w);
}
)";
  auto exact =
      analyzeReplacing(code, "GRID", "dim3 block(8, 1, 1); dim3 grid(w / block.x, 1, 1);");
  EXPECT_EQ(exact.candidates_size(), 0) << exact.DebugString();
  auto copied = analyzeReplacing(
      code, "GRID", "dim3 block; block.x = 16; dim3 g0(w / block.x); dim3 grid(g0);");
  EXPECT_EQ(copied.candidates_size(), 0) << copied.DebugString();
  auto rounded = analyzeReplacing(
      code, "GRID", "dim3 block(48); dim3 grid; grid.x = (w + block.x - 1) / block.x;");
  auto races = findings(rounded, v1::RACE_CLASS_INTER_BLOCK);
  ASSERT_FALSE(races.empty()) << rounded.DebugString();
  EXPECT_EQ(races.front().witness().grid_dim().x(), 86u) << rounded.DebugString();
}

// A block reads the bounds of its row from a buffer it never writes: every
// thread of the block reads the same two values, so the threads' strided
// walks over the row never meet. Where the launch passes that buffer as
// the output too, the bounds may change under the block's feet.
const char *kRowsOfABlock = R"(
__global__ void scaleRows(const int *row_start, const int *in, int *out, int rows) {
  int row = blockIdx.x;
  if (row >= rows) return;
  int begin = row_start[row];
  int end = row_start[row + 1];
  for (int i = begin + threadIdx.x; i < end; i += blockDim.x)
    out[i] = in[i] + threadIdx.x;
}
int main() {
  int rows = 1000, *starts, *in, *out;
  cudaMalloc(&starts, (rows + 1) * sizeof(int));
  cudaMalloc(&in, 100000 * sizeof(int));
  cudaMalloc(&out, 100000 * sizeof(int));
  scaleRows<<<rows, 128>>>(starts, in, OUT, rows);
}
)";

TEST(HostAliasing, WhatThreadsReadFromABufferNoneWritesIsOneValuePerElement) {
  auto separate = analyzeReplacing(kRowsOfABlock, "OUT", "out");
  EXPECT_TRUE(findings(separate, v1::RACE_CLASS_INTRA_BLOCK).empty()) << separate.DebugString();
  EXPECT_TRUE(findings(separate, v1::RACE_CLASS_INTRA_WARP).empty()) << separate.DebugString();
  // Which rows do not overlap is up to the data: across blocks it stays a
  // race on the loaded bounds.
  EXPECT_FALSE(findings(separate, v1::RACE_CLASS_INTER_BLOCK).empty()) << separate.DebugString();

  auto aliased = analyzeReplacing(kRowsOfABlock, "OUT", "starts");
  bool within_block = false;
  for (const v1::RaceCandidate &c : findings(aliased, v1::RACE_CLASS_INTRA_BLOCK))
    within_block |= c.first().location().line() == 8 && c.second().location().line() == 8;
  EXPECT_TRUE(within_block) << aliased.DebugString();
}

// A kernel that takes its buffers in a struct by value: the pointer fields
// are pointer arguments like any other.
const char *kShiftViews = R"(
struct Views { const float *in; float *out; int n; };
__global__ void shiftViews(Views v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < v.n) v.out[i] = v.in[i + 1];
}
int main() {
  float *a, *b;
  cudaMalloc(&a, 1 << 20);
  cudaMalloc(&b, 1 << 20);
  VIEWS
  shiftViews<<<4, 256>>>(v);
}
)";

TEST(HostAliasing, PointerFieldsOfAStructArgumentHoldWhatItsInitializerPutsThere) {
  auto separate = analyzeReplacing(kShiftViews, "VIEWS", "Views v{a, b, 1024};");
  EXPECT_EQ(separate.candidates_size(), 0) << separate.DebugString();
  auto same = analyzeReplacing(kShiftViews, "VIEWS", "Views v{a, a, 1024};");
  EXPECT_FALSE(findings(same, v1::RACE_CLASS_INTER_BLOCK).empty()) << same.DebugString();
  // Set field by field from other pointers: any buffer, as before.
  auto assigned =
      analyzeReplacing(kShiftViews, "VIEWS", "Views v; v.in = a; v.out = a; v.n = 1024;");
  EXPECT_FALSE(findings(assigned, v1::RACE_CLASS_INTER_BLOCK).empty()) << assigned.DebugString();
}

TEST(HostAliasing, PointerFieldsSetOneByOneHoldTheBuffersTheAssignmentsReachWith) {
  auto separate =
      analyzeReplacing(kShiftViews, "VIEWS", "Views v; v.in = a; v.out = b; v.n = 1024;");
  EXPECT_TRUE(separate.errors().empty()) << separate.DebugString();
  EXPECT_EQ(separate.candidates_size(), 0) << separate.DebugString();
  // A field the program allocates itself is a buffer of its own.
  auto allocated = analyzeReplacing(
      kShiftViews, "VIEWS", "Views v; v.in = a; cudaMalloc(&v.out, 1 << 20); v.n = 1024;");
  EXPECT_EQ(allocated.candidates_size(), 0) << allocated.DebugString();
  // Where a branch may put the same buffer in both, they may race.
  auto chosen = analyzeReplacing(
      kShiftViews, "VIEWS",
      "Views v; v.in = a; if (rand() & 1) v.out = a; else v.out = b; v.n = 1024;");
  EXPECT_FALSE(findings(chosen, v1::RACE_CLASS_INTER_BLOCK).empty()) << chosen.DebugString();
}

// A launcher that takes the caller's struct by reference, sets one of its
// fields and launches from a lambda: the fields it leaves are the caller's.
TEST(HostAliasing, FieldsOfAStructPassedByReferenceAreTheCallersUnlessSetHere) {
  const char *code = R"(
struct Views { const float *in; float *out; float *scratch; int n; };
__global__ void shiftViews(Views v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < v.n) { v.out[i] = v.in[i + 1]; v.scratch[i] = v.in[i]; }
}
void launch(Views &v, float *scratch) {
  v.scratch = scratch;
  auto run = [&] { shiftViews<<<4, 256>>>(v); };
  run();
}
int main() {
  float *a, *b, *c;
  cudaMalloc(&a, 1 << 20);
  cudaMalloc(&b, 1 << 20);
  cudaMalloc(&c, 1 << 20);
  Views v;
  v.in = a;
  v.out = b;
  v.n = 1024;
  launch(v, SCRATCH);
}
)";
  auto separate = analyzeReplacing(code, "SCRATCH", "c");
  EXPECT_TRUE(separate.errors().empty()) << separate.DebugString();
  EXPECT_EQ(separate.candidates_size(), 0) << separate.DebugString();
  // The scratch the launcher puts in is the input.
  auto shared = analyzeReplacing(code, "SCRATCH", "a");
  EXPECT_FALSE(findings(shared, v1::RACE_CLASS_INTER_BLOCK).empty()) << shared.DebugString();
}

// A global struct of device pointers, allocated field by field in a
// setup function and passed whole to the kernel.
const char *kGlobalViews = R"(
struct Views { const float *in; float *out; int n; };
Views views;
Views others[2];
__global__ void shiftViews(Views v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < v.n) v.out[i] = v.in[i + 1];
}
void setup() {
  cudaMalloc((void **)&views.in, 1 << 20);
  cudaMalloc((void **)&views.out, 1 << 20);
  views.n = 1024;
  for (int k = 0; k < 2; ++k) {
    cudaMalloc((void **)&others[k].in, 1 << 20);
    cudaMalloc((void **)&others[k].out, 1 << 20);
    others[k].n = 1024;
  }
  SETUP
}
void run() { shiftViews<<<4, 256>>>(LAUNCHED); }
int main() { setup(); run(); }
)";

v1::AnalysisResult analyzeGlobalViews(const std::string &setup, const std::string &launched) {
  std::string code = kGlobalViews;
  code.replace(code.find("LAUNCHED"), 8, launched);
  return analyzeReplacing(code, "SETUP", setup);
}

TEST(HostAliasing, PointerFieldsOfAGlobalStructOnlyAllocatedAreBuffersOfTheirOwn) {
  // A field of another global set from this one's changes nothing here.
  for (auto [setup, launched] : {std::pair{"", "views"}, std::pair{"", "others[1]"},
                                 std::pair{"others[1].out = views.out;", "views"}}) {
    auto separate = analyzeGlobalViews(setup, launched);
    EXPECT_TRUE(separate.errors().empty()) << separate.DebugString();
    EXPECT_EQ(separate.candidates_size(), 0) << setup << launched << separate.DebugString();
  }
  // Any write that may bring another pointer into a field: a field set
  // from another, the struct stored whole, its address handed out.
  for (const char *setup : {"views.out = (float *)views.in;",
                            "Views both = {views.in, (float *)views.in, 1024}; views = both;",
                            "Views *p = &views; p->out = (float *)p->in;"}) {
    auto shared = analyzeGlobalViews(setup, "views");
    EXPECT_FALSE(findings(shared, v1::RACE_CLASS_INTER_BLOCK).empty())
        << setup << shared.DebugString();
  }
}

} // namespace
} // namespace gpurace::analyzer::testing
