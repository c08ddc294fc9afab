// What the pair checker concludes about small kernels with launches: races
// it must find (with witnesses that really collide) and pairs it must prove
// race-free.
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

namespace gpurace::analyzer::testing {
namespace {

uint32_t linear(const v1::ThreadCoord &t, const v1::Dim3 &block) {
  return t.thread_idx().x() + block.x() * (t.thread_idx().y() + block.y() * t.thread_idx().z());
}

TEST(PairCheck, SharedMemoryReadAfterWriteWithoutBarrierRaces) {
  auto result = analyzeCode(R"(
__global__ void k(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = threadIdx.x;
  out[blockIdx.x * 256 + threadIdx.x] = s[(threadIdx.x + 1) % 256];
}
int main() { float *o; cudaMalloc(&o, 4096); k<<<4, 256>>>(o); }
)");
  ASSERT_TRUE(hasRaceBetween(result, 4, 5));
  auto races = findings(result, v1::RACE_CLASS_INTRA_BLOCK);
  ASSERT_FALSE(races.empty());
  const v1::Witness &w = races.front().witness();
  // Same block, different warps, and the written element is the one read.
  EXPECT_EQ(w.first().block_idx().x(), w.second().block_idx().x());
  EXPECT_NE(linear(w.first(), w.block_dim()) / 32, linear(w.second(), w.block_dim()) / 32);
  uint32_t writer = races.front().first().kind() == v1::ACCESS_KIND_WRITE
                        ? w.first().thread_idx().x()
                        : w.second().thread_idx().x();
  uint32_t reader = writer == w.first().thread_idx().x() ? w.second().thread_idx().x()
                                                         : w.first().thread_idx().x();
  EXPECT_EQ(writer, (reader + 1) % 256);
  EXPECT_EQ(w.block_dim().x(), 256u);
}

// A pointer set to one of two buffers on two paths is one of them: it
// overlaps what either may overlap, and nothing else.
TEST(PairCheck, APointerChosenByABranchIsOneOfItsBuffers) {
  const char *kernel = R"(
__global__ void k(int *a, int *b, int *out, int n, int split) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 >= n) return;
  const int *src;
  if (i < split) src = a; else src = SECOND;
  out[i] = src[i + 1];
}
int main() {
  int *a, *b, *o;
  cudaMalloc(&a, 4096); cudaMalloc(&b, 4096); cudaMalloc(&o, 4096);
  k<<<4, 256>>>(a, b, o, 1000, 300);
}
)";
  auto code = [&](const std::string &second) {
    std::string text = kernel;
    text.replace(text.find("SECOND"), 6, second);
    return text;
  };
  v1::AnalysisResult apart = analyzeCode(code("b"));
  EXPECT_EQ(apart.errors_size(), 0) << apart.DebugString();
  EXPECT_TRUE(findings(apart).empty()) << apart.DebugString();
  // Past the split the source is the output itself, one element on.
  v1::AnalysisResult shifted = analyzeCode(code("out"));
  EXPECT_TRUE(hasRaceBetween(shifted, 7, 7)) << shifted.DebugString();
}

// Rows stepped by a pitch in bytes over 4-byte elements: overlapping
// ranges leave a difference in [-3, 3], not one multiple, which the
// bounded delinearization lemmas decide (before them: an undecided pair).
TEST(PairCheck, ElementsOfPitchedRowsAreProvedApart) {
  auto result = analyzeCode(R"(
__global__ void halve(float *base, size_t pitch, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < ny) {
    float *line = (float *)((char *)base + y * pitch);
    line[x] = line[x] / 2;
  }
}
void run(int nx, int ny) {
  float *base;
  size_t pitch;
  cudaMallocPitch((void **)&base, &pitch, nx * sizeof(float), ny);
  halve<<<dim3((nx + 31) / 32, (ny + 3) / 4), dim3(32, 4)>>>(base, pitch, nx, ny);
}
int main() {
  const int xs[] = {100, 333, 1024};
  const int ys[] = {50, 200, 768};
  for (int i = 0; i < 3; i++) run(xs[i], ys[i]);
}
)");
  EXPECT_EQ(result.errors_size(), 0) << result.DebugString();
  EXPECT_EQ(result.candidates_size(), 0) << result.DebugString();
}

// A tiled product with no launch in sight: the tiles' sides bound the
// block.
const char *const kTiledProductWithoutLaunch = R"(
template <int kSide>
__device__ void product(float *out, const float *p, const float *q, int n) {
  __shared__ float pt[kSide][kSide];
  __shared__ float qt[kSide][kSide];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * kSide + ty, col = blockIdx.x * kSide + tx;
  float acc = 0;
  for (int t = 0; t < n / kSide; ++t) {
    pt[ty][tx] = p[row * n + t * kSide + tx];
    qt[ty][tx] = q[(t * kSide + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < kSide; ++k)
      acc += pt[ty][k] * qt[k][tx];
    __syncthreads();
  }
  out[((blockIdx.y * gridDim.x + blockIdx.x) * blockDim.y + ty) * blockDim.x + tx] = acc;
}
extern "C" __global__ void product16(float *out, const float *p, const float *q, int n) {
  product<16>(out, p, q, n);
}
)";

// The tiles' stores are proved apart: no pair is left undecided.
TEST(PairCheck, TheStoresOfUnlaunchedTilesAreProvedApart) {
  auto result = analyzeCode(kTiledProductWithoutLaunch);
  EXPECT_EQ(result.errors_size(), 0) << result.DebugString();
  EXPECT_EQ(result.candidates_size(), 0) << result.DebugString();
}

// Threads with one element of a tile have the same coordinates, so the
// same rank in the block, and no warp class holds them: stated as a
// theorem, the solver needs no products of block sizes and coordinates
// for it. A twentieth of the default effort (escalated, still below the
// default) decides every pair; without the theorem they stay undecided.
TEST(PairCheck, ThreadsWithTheSameCoordinatesShareARankAtLittleEffort) {
  AnalyzeOptions options;
  options.query_rlimit = 20000;
  auto result = analyzeCode(kTiledProductWithoutLaunch, options);
  EXPECT_EQ(result.errors_size(), 0) << result.DebugString();
  EXPECT_EQ(result.candidates_size(), 0) << result.DebugString();
}

TEST(PairCheck, BarrierSeparatesWriteAndRead) {
  auto result = analyzeCode(R"(
__global__ void k(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = s[(threadIdx.x + 1) % 256];
}
int main() { float *o; cudaMalloc(&o, 4096); k<<<4, 256>>>(o); }
)");
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
}

TEST(PairCheck, MissingSecondBarrierInLoopRacesAcrossTheBackEdge) {
  const char *code = R"(
__global__ void jacobi(float *a, int steps) {
  __shared__ float s[258];
  int t = threadIdx.x + 1;
  for (int i = 0; i < steps; ++i) {
    float v = (s[t - 1] + s[t + 1]) / 2;
    __syncthreads();
    s[t] = v;%s
  }
}
int main() { float *a; cudaMalloc(&a, 1024); jacobi<<<1, 256>>>(a, 10); }
)";
  char racy[1024], fixed[1024];
  std::snprintf(racy, sizeof racy, code, "");
  std::snprintf(fixed, sizeof fixed, code, "\n    __syncthreads();");
  EXPECT_TRUE(hasRaceBetween(analyzeCode(racy), 6, 8));
  EXPECT_FALSE(hasRaceBetween(analyzeCode(fixed), 6, 8));
}

TEST(PairCheck, InjectiveIndexingIsRaceFreeIn1D2DAnd3D) {
  auto result = analyzeCode(R"(
__global__ void one(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = i;
}
__global__ void two(int *a, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) a[y * w + x] = x;
}
__global__ void three(int *a, int w, int h, int d) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < w && y < h && z < d) a[(z * h + y) * w + x] = z;
}
int main() {
  int *a; cudaMalloc(&a, 1 << 20);
  one<<<64, 256>>>(a, 16384);
  two<<<dim3(8, 8), dim3(16, 16)>>>(a, 128, 128);
  three<<<dim3(4, 4, 4), dim3(8, 8, 4)>>>(a, 32, 32, 16);
}
)");
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
  EXPECT_EQ(result.kernels_analyzed(), 3u);
}

TEST(PairCheck, ReadOfTheNextElementInTheSameStatementRaces) {
  auto result = analyzeCode(R"(
__global__ void shift(int *A, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n - 1) A[t] = A[t + 1];
}
int main() { int *a; cudaMalloc(&a, 4096); shift<<<4, 256>>>(a, 1024); }
)");
  EXPECT_TRUE(hasRaceBetween(result, 4, 4));
  EXPECT_FALSE(findings(result, v1::RACE_CLASS_INTER_BLOCK).empty());
  EXPECT_FALSE(findings(result, v1::RACE_CLASS_INTRA_WARP).empty());
}

TEST(PairCheck, SyncwarpOrdersLanesOfAWarp) {
  const char *code = R"(
__global__ void k(int *out) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;%s
  out[threadIdx.x] = s[31 - threadIdx.x];
}
int main() { int *o; cudaMalloc(&o, 128); k<<<1, 32>>>(o); }
)";
  char racy[1024], fixed[1024];
  std::snprintf(racy, sizeof racy, code, "");
  std::snprintf(fixed, sizeof fixed, code, "\n  __syncwarp();");
  auto with_race = analyzeCode(racy);
  EXPECT_FALSE(findings(with_race, v1::RACE_CLASS_INTRA_WARP).empty());
  EXPECT_TRUE(findings(with_race, v1::RACE_CLASS_INTRA_BLOCK).empty())
      << "one warp cannot race across warps";
  EXPECT_TRUE(findings(analyzeCode(fixed)).empty());
}

TEST(PairCheck, RaceThroughDeviceFunctionKeepsTheCallStack) {
  auto result = analyzeCode(R"(
__device__ void store(float *row, int i, float v) {
  row[i] = v;
}
__global__ void k(float *m, int width) {
  store(m + blockIdx.x * width, threadIdx.x / 2, threadIdx.x * 0.5f);
}
int main() { float *m; cudaMalloc(&m, 1 << 16); k<<<8, 64>>>(m, 64); }
)");
  auto races = findings(result, v1::RACE_CLASS_INTRA_WARP);
  ASSERT_FALSE(races.empty());
  ASSERT_EQ(races.front().first().call_stack_size(), 1);
  EXPECT_EQ(races.front().first().call_stack(0).callee(), "store");
  EXPECT_EQ(races.front().first().call_stack(0).call_site().line(), 6u);
  EXPECT_TRUE(findings(result, v1::RACE_CLASS_INTER_BLOCK).empty())
      << "rows of different blocks do not overlap";
}

TEST(PairCheck, TemplateIsAnalyzedPerInstantiationLaunched) {
  auto result = analyzeCode(R"(
template <int Stride>
__global__ void gather(int *a) {
  a[threadIdx.x * Stride / 2] = threadIdx.x;
}
int main() {
  int *a; cudaMalloc(&a, 4096);
  gather<2><<<1, 64>>>(a);
  gather<1><<<1, 64>>>(a);
}
)");
  auto races = findings(result);
  ASSERT_FALSE(races.empty());
  for (const auto &race : races)
    EXPECT_EQ(race.launch_site().location().line(), 9u)
        << "only gather<1> maps two threads to one element";
}

TEST(PairCheck, DivergentBarrierHasTwoDisagreeingThreads) {
  auto result = analyzeCode(R"(
__global__ void k(float *a) {
  if (threadIdx.x < 16) {
    a[threadIdx.x] = 0;
    __syncthreads();
  }
}
int main() { float *a; cudaMalloc(&a, 1024); k<<<1, 64>>>(a); }
)");
  auto divergent = findings(result, v1::RACE_CLASS_BARRIER_DIVERGENCE);
  ASSERT_EQ(divergent.size(), 1u);
  EXPECT_EQ(divergent.front().first().location().line(), 5u);
  const v1::Witness &w = divergent.front().witness();
  EXPECT_NE(w.first().thread_idx().x() < 16, w.second().thread_idx().x() < 16);
}

TEST(PairCheck, UniformBarrierInsideABranchIsNotDivergent) {
  auto result = analyzeCode(R"(
__global__ void k(float *a, int n) {
  if (n > 4) {
    a[blockIdx.x * blockDim.x + threadIdx.x] = 0;
    __syncthreads();
  }
}
int main() { float *a; cudaMalloc(&a, 1024); k<<<2, 64>>>(a, 8); }
)");
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
}

TEST(PairCheck, WrapAroundOfANarrowIndexIsARaceOnlyUnderWrap) {
  const char *code = R"(
__global__ void k(int *a) {
  unsigned char i = threadIdx.x;
  a[i] = threadIdx.x;
}
int main() { int *a; cudaMalloc(&a, 4096); k<<<1, 512>>>(a); }
)";
  AnalyzeOptions wrap;
  wrap.overflow = OverflowMode::Wrap;
  EXPECT_TRUE(findings(analyzeCode(code)).empty());
  EXPECT_FALSE(findings(analyzeCode(code, wrap)).empty());
}

TEST(PairCheck, AtomicAgainstPlainAccessIsARaceButTwoAtomicsAreNot) {
  auto result = analyzeCode(R"(
__global__ void k(int *count, int *snapshot) {
  atomicAdd(count, 1);
  if (threadIdx.x == 0) snapshot[blockIdx.x] = *count;
}
int main() { int *c, *s; cudaMalloc(&c, 4); cudaMalloc(&s, 64); k<<<4, 64>>>(c, s); }
)");
  bool atomic_vs_plain = false;
  for (const auto &race : findings(result)) {
    EXPECT_FALSE(race.first().kind() == v1::ACCESS_KIND_ATOMIC &&
                 race.second().kind() == v1::ACCESS_KIND_ATOMIC);
    atomic_vs_plain |= race.defect() == v1::SYNC_DEFECT_ATOMIC_VS_PLAIN;
  }
  EXPECT_TRUE(atomic_vs_plain);
}

TEST(PairCheck, BlockScopeAtomicsFromDifferentBlocksAreAScopedRace) {
  auto result = analyzeCode(R"(
__global__ void k(int *count) {
  atomicAdd_block(count, 1);
}
int main() { int *c; cudaMalloc(&c, 4); k<<<4, 64>>>(c); }
)");
  auto scoped = findings(result, v1::RACE_CLASS_SCOPED);
  ASSERT_EQ(scoped.size(), 1u);
  EXPECT_EQ(scoped.front().insufficient_scope(), v1::MEMORY_SCOPE_BLOCK);
}

TEST(PairCheck, LaunchWithOneBlockMakesTheFinalStoreRaceFree) {
  const char *code = R"(
__global__ void finish(const float *partial, float *result) {
  if (threadIdx.x == 0) result[0] = partial[blockIdx.x];
}
int main() {
  float *p, *r; cudaMalloc(&p, 1024); cudaMalloc(&r, 4);
  finish<<<%s, 128>>>(p, r);
}
)";
  char one[512], many[512];
  std::snprintf(one, sizeof one, code, "1");
  std::snprintf(many, sizeof many, code, "8");
  EXPECT_TRUE(findings(analyzeCode(one)).empty());
  EXPECT_FALSE(findings(analyzeCode(many), v1::RACE_CLASS_INTER_BLOCK).empty());
}

TEST(PairCheck, KernelWithoutLaunchUsesCommandLineDimsAndRanksLower) {
  const char *code = R"(
__global__ void k(int *a) {
  a[threadIdx.x / 2] = threadIdx.x;
}
)";
  AnalyzeOptions options;
  options.block_dim = Dims{64, 1, 1};
  options.grid_dim = Dims{1, 1, 1};
  auto result = analyzeCode(code, options);
  auto races = findings(result);
  ASSERT_FALSE(races.empty());
  EXPECT_LT(races.front().score(), 1.0);
  EXPECT_EQ(races.front().witness().block_dim().x(), 64u);
  bool no_launch = false;
  for (const auto &i : races.front().imprecisions())
    no_launch |= i.kind() == v1::IMPRECISION_KIND_NO_LAUNCH_CONTEXT;
  EXPECT_TRUE(no_launch);
}

} // namespace
} // namespace gpurace::analyzer::testing

namespace gpurace::analyzer::testing {
namespace {

const char *kGuarded = R"(
#include <cstdlib>
__global__ void wrap(int *a, int n) {
  a[threadIdx.x %% n] = threadIdx.x;
}
int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  int *a; cudaMalloc(&a, 4096);%s
  wrap<<<1, 64>>>(a, n);
}
)";

TEST(HostFacts, ExitGuardBeforeTheLaunchMakesTheKernelRaceFree) {
  char guarded[1024], unguarded[1024];
  std::snprintf(guarded, sizeof guarded, kGuarded, "\n  if (n < 64) return 1;");
  std::snprintf(unguarded, sizeof unguarded, kGuarded, "");
  auto racy = analyzeCode(unguarded);
  EXPECT_FALSE(findings(racy).empty());
  auto safe = analyzeCode(guarded);
  EXPECT_TRUE(findings(safe).empty()) << safe.DebugString();
  // The proof says which host fact it rests on.
  bool names_guard = false;
  for (const auto &proof : safe.race_freedom_proofs())
    for (const auto &a : proof.assumptions())
      names_guard |= a.role() == v1::Assumption::ROLE_REQUIRED_FOR_RACE_FREEDOM &&
                     a.description().find("n < 64") != std::string::npos;
  EXPECT_TRUE(names_guard) << safe.DebugString();
}

TEST(HostFacts, KernelOnlyAnalysisIgnoresTheGuard) {
  char guarded[1024];
  std::snprintf(guarded, sizeof guarded, kGuarded, "\n  if (n < 64) return 1;");
  AnalyzeOptions kernel_only;
  kernel_only.host_facts = false;
  kernel_only.block_dim = Dims{64, 1, 1};
  EXPECT_FALSE(findings(analyzeCode(guarded, kernel_only)).empty());
}

TEST(HostFacts, DimsComputedFromAHostVariableRelateToTheArgument) {
  auto result = analyzeCode(R"(
#include <cstdlib>
__global__ void last(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == n - 1) a[0] = i;
}
int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  int *a; cudaMalloc(&a, 4);
  last<<<1, n>>>(a, n);
}
)");
  // Only thread n-1 of the single block writes: no two threads do.
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
}

TEST(HostFacts, AssertMacroWrappedInDoWhileZeroIsAGuard) {
  auto result = analyzeCode(R"(
#include <cstdio>
#include <cstdlib>
#define CHECK_OR_DIE(c) do { if (!(c)) { fprintf(stderr, "%s\n", #c); abort(); } } while (0)
__global__ void wrap(int *a, int n) {
  a[threadIdx.x % n] = threadIdx.x;
}
int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  CHECK_OR_DIE(n >= 64);
  int *a; cudaMalloc(&a, 4096);
  wrap<<<1, 64>>>(a, n);
}
)");
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
  bool shown_as_written = false;
  for (const auto &proof : result.race_freedom_proofs())
    for (const auto &a : proof.assumptions())
      shown_as_written |= a.description() == "guard: n >= 64";
  EXPECT_TRUE(shown_as_written) << result.DebugString();
}

TEST(HostFacts, Malloc3DPitchCoversTheRequestedWidth) {
  auto result = analyzeCode(R"(
__global__ void nextRow(char *base, size_t pitch, int width) {
  int x = threadIdx.x;
  if (x < width) base[pitch + x] = base[x];
}
int main() {
  cudaPitchedPtr volume;
  cudaMalloc3D(&volume, make_cudaExtent(256, 4, 2));
  nextRow<<<1, 256>>>((char *)volume.ptr, volume.pitch, 256);
}
)");
  // Row 1 starts at least a width after row 0.
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
  bool names_pitch = false;
  for (const auto &proof : result.race_freedom_proofs())
    for (const auto &a : proof.assumptions())
      names_pitch |= a.description() ==
                     "'volume.pitch' from 'cudaMalloc3D' >= the width it was asked for";
  EXPECT_TRUE(names_pitch) << result.DebugString();
}

// A row of 16-bit pixels read as words, `((int *)image)[y * (stride / 2) +
// x]`, names the pixels `image[y * stride + 2 * x]` and the one after only
// where the stride is even: with a pitch of 130 bytes, thread x's word in
// row 2 would start a pixel early, at thread x - 1's pixel.
// cudaMallocPitch keeps rows aligned for 16-byte accesses, and says so.
TEST(HostFacts, MallocPitchKeepsRowsAlignedForWideWords) {
  auto result = analyzeCode(R"(
__global__ void pairUp(short *image, int stride, int *pairs) {
  int x = threadIdx.x, y = threadIdx.y;
  image[y * stride + 2 * x] = (short)x;
  pairs[y * 32 + x] = ((int *)image)[y * (stride / 2) + x];
}
int main() {
  short *image;
  int *pairs;
  size_t pitch;
  cudaMallocPitch((void **)&image, &pitch, 64 * sizeof(short), 4);
  cudaMalloc(&pairs, 128 * sizeof(int));
  pairUp<<<1, dim3(32, 4)>>>(image, (int)(pitch / sizeof(short)), pairs);
}
)");
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
  bool names_alignment = false;
  for (const auto &proof : result.race_freedom_proofs())
    for (const auto &a : proof.assumptions())
      names_alignment |= a.description() == "'pitch' from 'cudaMallocPitch' is a multiple of 16 bytes";
  EXPECT_TRUE(names_alignment) << result.DebugString();
}

TEST(HostFacts, WrapperParametersAreFollowedIntoEachCaller) {
  auto result = analyzeCode(R"(
#include <cassert>
#include <cstdlib>
__global__ void copyAhead(float *a, int offset) {
  a[threadIdx.x + offset] = a[threadIdx.x];
}
void launchCopy(float *buf, int off, dim3 block) {
  copyAhead<<<1, block>>>(buf, off);
}
int main(int argc, char **argv) {
  int offset = atoi(argv[1]);
  assert(offset >= 64);
  float *a; cudaMalloc(&a, 4096);
  launchCopy(a, offset, dim3(64));
  launchCopy(a, 16, dim3(32));
}
)");
  // The first call is race-free thanks to main's assert, the second races.
  auto races = findings(result);
  ASSERT_FALSE(races.empty());
  for (const auto &race : races) {
    EXPECT_EQ(race.witness().block_dim().x(), 32u);
    ASSERT_EQ(race.witness().parameters_size(), 1);
    EXPECT_EQ(race.witness().parameters(0).value(), "16");
  }
  bool assert_in_main = false;
  for (const auto &proof : result.race_freedom_proofs())
    for (const auto &a : proof.assumptions())
      assert_in_main |= a.kind() == v1::HOST_FACT_KIND_ASSERT &&
                        a.location().line() == 12;
  EXPECT_TRUE(assert_in_main) << result.DebugString();
}

TEST(HostFacts, CudaLaunchKernelArgumentArrayIsFollowed) {
  const char *code = R"(
__global__ void k(float *a, int n) {
  if (threadIdx.x < n) a[threadIdx.x + 1] = a[threadIdx.x];
}
int main() {
  float *a; cudaMalloc(&a, 4096);
  int n = %d;
  void *args[] = {&a, &n};
  cudaLaunchKernel((void *)k, dim3(1), dim3(64), args, 0, 0);
}
)";
  char one[1024], two[1024];
  std::snprintf(one, sizeof one, code, 1);
  std::snprintf(two, sizeof two, code, 2);
  auto single = analyzeCode(one);
  EXPECT_TRUE(findings(single).empty()) << single.DebugString();
  // Two threads: thread 0 writes the element thread 1 reads.
  EXPECT_TRUE(hasRaceBetween(analyzeCode(two), 3, 3));
}

// A chunk offset the kernel assumes to be a multiple of its block: each
// thread reads back the element it wrote only when it is.
constexpr const char *kAlignedChunks = R"(
__global__ void stage(float *a, int base) {
  __shared__ float s[256];
  s[(base + threadIdx.x) %% 256] = a[base + threadIdx.x];
  a[base + threadIdx.x] = 2.0f * s[threadIdx.x];
}
int main() {
  const int n = 1 << 16;
  float *a; cudaMalloc(&a, n * sizeof(float));
  for (%s)
    stage<<<1, 256>>>(a, base);
}
)";

TEST(HostFacts, HostLoopStrideAlignsTheArgument) {
  char aligned[1024], unaligned[1024];
  std::snprintf(aligned, sizeof aligned, kAlignedChunks,
                "int base = 0; base < n; base += 256");
  std::snprintf(unaligned, sizeof unaligned, kAlignedChunks,
                "int base = 32; base < n; base = base + 256");
  auto safe = analyzeCode(aligned);
  EXPECT_TRUE(findings(safe).empty()) << safe.DebugString();
  bool names_stride = false;
  for (const auto &proof : safe.race_freedom_proofs())
    for (const auto &a : proof.assumptions())
      names_stride |= a.description() == "loop: base steps by 256 from 0";
  EXPECT_TRUE(names_stride) << safe.DebugString();
  EXPECT_TRUE(hasRaceBetween(analyzeCode(unaligned), 4, 5));
}

TEST(HostFacts, CountingDownBoundsTheInductionVariableFromAbove) {
  // off halves from 512: nothing bounds it from below but the condition.
  auto result = analyzeCode(R"(
__global__ void shift(float *a, int off) {
  a[threadIdx.x] = a[threadIdx.x + off];
}
int main() {
  const int n = 1024;
  float *a; cudaMalloc(&a, 2 * n * sizeof(float));
  for (int off = n / 2; off >= 1; off /= 2)
    shift<<<1, 128>>>(a, off);
  for (int off = n; off >= 256; off -= 128)
    shift<<<1, 128>>>(a, off);
}
)");
  // The halving loop reaches off < 128; the second loop never goes below
  // 256, so only the first launch races.
  ASSERT_TRUE(hasRaceBetween(result, 3, 3)) << result.DebugString();
  for (const auto &f : findings(result))
    EXPECT_EQ(f.launch_site().location().line(), 9u) << f.DebugString();
}

TEST(HostFacts, ADoublingHostLoopNeverGoesBelowItsStart) {
  // The stride doubles from 256: a block of 128 threads never reads what
  // another of its threads writes. Starting from 64 it does.
  const char *code = R"(
__global__ void shift(float *a, int stride) {
  a[threadIdx.x] = a[threadIdx.x + stride];
}
int main() {
  const int n = 1 << 16;
  float *a; cudaMalloc(&a, 2 * n * sizeof(float));
  for (int stride = %d; stride < n; stride <<= 1)
    shift<<<1, 128>>>(a, stride);
}
)";
  char from_256[1024], from_64[1024];
  std::snprintf(from_256, sizeof from_256, code, 256);
  std::snprintf(from_64, sizeof from_64, code, 64);
  auto safe = analyzeCode(from_256);
  EXPECT_TRUE(findings(safe).empty()) << safe.DebugString();
  bool grows = false;
  for (const auto &proof : safe.race_freedom_proofs())
    for (const auto &a : proof.assumptions())
      grows |= a.description() == "loop: stride grows from 256";
  EXPECT_TRUE(grows) << safe.DebugString();
  EXPECT_TRUE(hasRaceBetween(analyzeCode(from_64), 3, 3));
}

TEST(HostFacts, ConditionOfALoopThatChangesItsVariableFirstIsNotAFact) {
  auto result = analyzeCode(R"(
__global__ void shift(float *a, int off) {
  a[threadIdx.x] = a[threadIdx.x + off];
}
int main() {
  float *a; cudaMalloc(&a, 4096);
  int off = 300;
  while (off >= 128) {
    off -= 200;
    shift<<<1, 128>>>(a, off);
  }
}
)");
  EXPECT_TRUE(hasRaceBetween(result, 3, 3)) << result.DebugString();
}

TEST(HostFacts, FieldsOfAStructArgumentAreTheHostsFields) {
  auto result = analyzeCode(R"(
struct Image { float *pixels; int width; int height; };
__global__ void stamp(Image img, int columns) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x < columns && y < img.height)
    img.pixels[y * img.width + x] = y;
}
int main() {
  const int width = 512, height = 64;
  Image img;
  cudaMalloc(&img.pixels, width * height * sizeof(float));
  img.width = width;
  img.height = height;
  stamp<<<dim3(width / 128, height), 128>>>(img, width);
  Image half = {img.pixels, width / 2, height};
  stamp<<<dim3(width / 128, height), 128>>>(half, width);
}
)");
  // Accesses through the struct's pointer are checked; rows overlap only
  // in the launch whose struct says half the width.
  ASSERT_TRUE(hasRaceBetween(result, 7, 7)) << result.DebugString();
  for (const auto &f : findings(result)) {
    EXPECT_EQ(f.launch_site().location().line(), 17u) << f.DebugString();
    bool shows_width = false;
    for (const auto &p : f.witness().parameters())
      shows_width |= p.name() == "img.width" && p.value() == "256";
    EXPECT_TRUE(shows_width) << f.witness().DebugString();
  }
}

TEST(HostFacts, PointerArgumentsIntoOneBufferAreComparedAtTheirOffsets) {
  auto result = analyzeCode(R"(
__global__ void copy(float *dst, const float *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] = src[i];
}
int main() {
  const int n = 4096;
  float *base;
  cudaMalloc(&base, (n + 100) * sizeof(float));
  copy<<<n / 256, 256>>>(base, base, n);
  float *upper = base + n;
  copy<<<n / 256, 256>>>(upper, base, 100);
  copy<<<n / 256, 256>>>(base + 1, base, n);
}
)");
  // The same pointer twice and a view past the copied range do not race;
  // a view one element up does.
  ASSERT_TRUE(hasRaceBetween(result, 5, 5)) << result.DebugString();
  for (const auto &f : findings(result)) {
    EXPECT_EQ(f.launch_site().location().line(), 14u) << f.DebugString();
    EXPECT_DOUBLE_EQ(f.score(), 1.0) << f.DebugString();
  }
}

TEST(PairCheck, AccessesThroughLoadedPointersAreChecked) {
  auto result = analyzeCode(R"(
__global__ void k(float **rows) {
  float *row = rows[1];
  row[threadIdx.x % 2] = threadIdx.x;
}
int main() { float **r; cudaMalloc(&r, 64); k<<<1, 64>>>(r); }
)");
  ASSERT_TRUE(hasRaceBetween(result, 4, 4)) << result.DebugString();
  bool unresolved = false;
  for (const auto &f : findings(result))
    for (const auto &i : f.imprecisions())
      unresolved |= i.kind() == v1::IMPRECISION_KIND_UNRESOLVED_POINTER &&
                    i.detail() == "pointer loaded from rows";
  EXPECT_TRUE(unresolved) << result.DebugString();
}

TEST(HostFacts, HostValuesTimesThreadCoordinatesGetAWitnessWithTheLaunchFixed) {
  auto result = analyzeCode(R"(
__global__ void fill(float *m, int stride, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    m[y * stride + x] = x + y;
}
int main() {
  const int width = 2048, height = 512;
  float *m;
  size_t pitch;
  cudaMallocPitch((void **)&m, &pitch, width * sizeof(float), height);
  int stride = static_cast<int>(pitch / sizeof(double));
  fill<<<dim3(width / 32, height / 8), dim3(32, 8)>>>(m, stride, width, height);
}
)");
  // stride is half a row: a real race with a concrete witness, not a pair
  // the solver gave up on.
  auto races = findings(result, v1::RACE_CLASS_INTER_BLOCK);
  ASSERT_FALSE(races.empty()) << result.DebugString();
  for (const auto &i : races.front().imprecisions())
    EXPECT_NE(i.kind(), v1::IMPRECISION_KIND_SOLVER_UNDECIDED);
  int64_t stride = 0;
  for (const auto &p : races.front().witness().parameters())
    if (p.name() == "stride")
      stride = std::stoll(p.value());
  EXPECT_GE(stride, 1024);
  EXPECT_LT(stride, 2048);
}

TEST(PairCheck, GeometricLoopVariableKeepsItsDirection) {
  // offset doubles from 1: it never reaches 0 or below, so the read of
  // s[t - offset] stays apart from the write of s[t] in each round.
  auto result = analyzeCode(R"(
__global__ void scan(int *out) {
  __shared__ int s[2 * 256];
  int t = threadIdx.x, pout = 0, pin = 1;
  s[t] = t;
  __syncthreads();
  for (int offset = 1; offset < 256; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (t >= offset)
      s[pout * 256 + t] = s[pin * 256 + t] + s[pin * 256 + t - offset];
    else
      s[pout * 256 + t] = s[pin * 256 + t];
    __syncthreads();
  }
  out[t] = s[pout * 256 + t];
}
int main() { int *o; cudaMalloc(&o, 1024); scan<<<1, 256>>>(o); }
)");
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
}

TEST(PairCheck, ColumnWalkWithASymbolicWidthIsProvedRaceFree) {
  // Each thread walks its own column of a w-wide image: y * w + x against
  // y' * w + x' with x, x' < w. A verdict the solver must prove, not give
  // up on.
  auto result = analyzeCode(R"(
__global__ void columnSum(const float *in, float *out, int w, int h) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= w)
    return;
  float sum = 0;
  for (int y = 0; y < h; y++) {
    sum += in[y * w + x];
    out[y * w + x] = sum;
  }
}
void run(int w, int h) {
  float *in, *out;
  cudaMalloc(&in, w * h * sizeof(float));
  cudaMalloc(&out, w * h * sizeof(float));
  columnSum<<<(w + 63) / 64, 64>>>(in, out, w, h);
}
)");
  // An undecided pair would be a candidate below the threshold.
  EXPECT_GT(result.pairs_checked(), 0);
  EXPECT_EQ(result.candidates_size(), 0) << result.DebugString();
}

TEST(PairCheck, SlotsOfEachPointOfABatchAreProvedApart) {
  // Each block owns a batch of n points, each thread its points' 8 slots:
  // (b * n + i) * 8 + j with j < 8 splits by the constant 8, then by n.
  // With 9 slots a point's last slot is the next point's first.
  const std::string kernel = R"(
__global__ void nearest(int n, const int *pts, int *out) {
  pts += blockIdx.x * n;
  out += blockIdx.x * n * 8;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    for (int j = 0; j < SLOTS; j++)
      out[i * 8 + j] = i;
    for (int j = 0; j < n; j++)
      if (pts[j] > pts[i])
        out[i * 8 + (pts[j] & 7)] = j;
  }
}
int main(int argc, char **argv) {
  int b = atoi(argv[1]), n = atoi(argv[2]);
  int *p, *o;
  cudaMalloc(&p, b * n * 4);
  cudaMalloc(&o, b * n * 36);
  nearest<<<b, 256>>>(n, p, o);
}
)";
  auto replaced = [&](const char *slots) {
    std::string code = kernel;
    code.replace(code.find("SLOTS"), 5, slots);
    return code;
  };
  auto proved = analyzeCode(replaced("8"));
  EXPECT_GT(proved.pairs_checked(), 0);
  EXPECT_EQ(proved.candidates_size(), 0) << proved.DebugString();
  auto racy = analyzeCode(replaced("9"));
  EXPECT_TRUE(hasRaceBetween(racy, 7, 7)) << racy.DebugString();
}

TEST(PairCheck, NullTestsOfAPointerParameterDependOnWhatTheHostPasses) {
  // `if (count)` tests the pointer, not its offset: with no launch the
  // guarded store is reachable; a launch that leaves the optional output
  // at its default NULL makes it unreachable.
  const std::string kernel = R"(
__global__ void k(int *data, int *count = NULL) {
  data[blockIdx.x * blockDim.x + threadIdx.x] = 1;
  if (count) *count = threadIdx.x;
  if (count != NULL) count[1] = threadIdx.x;
}
)";
  AnalyzeOptions kernel_only;
  kernel_only.host_facts = false;
  auto alone = analyzeCode(kernel, kernel_only);
  EXPECT_TRUE(hasRaceBetween(alone, 4, 4)) << alone.DebugString();
  EXPECT_TRUE(hasRaceBetween(alone, 5, 5)) << alone.DebugString();
  auto defaulted = analyzeCode(kernel + "int main() { int *d; cudaMalloc(&d, 4096); "
                                        "k<<<4, 256>>>(d); }\n");
  EXPECT_TRUE(findings(defaulted).empty()) << defaulted.DebugString();
  auto passed = analyzeCode(kernel + "int main() { int *d, *c; cudaMalloc(&d, 4096); "
                                     "cudaMalloc(&c, 8); k<<<4, 256>>>(d, c); }\n");
  EXPECT_TRUE(hasRaceBetween(passed, 4, 4)) << passed.DebugString();
}

TEST(PairCheck, PowerOfTwoMaskOfAHalvedStrideIsDecided) {
  // stride halves from 512, so `t & (stride - 1)` is t mod stride and the
  // pairs (pos, pos + stride) of one step are disjoint: a proof, not an
  // undecided pair. From 384 the stride reaches 3 and threads 1 and 2
  // share pos 2.
  const std::string merge = R"(
__global__ void merge(unsigned *d) {
  __shared__ unsigned s[1024];
  s[threadIdx.x] = d[threadIdx.x];
  s[threadIdx.x + 512] = d[threadIdx.x + 512];
  for (unsigned stride = START; stride > 0; stride >>= 1) {
    __syncthreads();
    unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    unsigned a = s[pos], b = s[pos + stride]; s[pos] = min(a, b); s[pos + stride] = max(a, b);
  }
}
int main() { unsigned *d; cudaMalloc(&d, 4096); merge<<<1, 512>>>(d); }
)";
  auto replaced = [&](const char *start) {
    std::string code = merge;
    code.replace(code.find("START"), 5, start);
    return analyzeCode(code);
  };
  auto power_of_two = replaced("512");
  EXPECT_GT(power_of_two.pairs_checked(), 0);
  EXPECT_EQ(power_of_two.candidates_size(), 0) << power_of_two.DebugString();
  EXPECT_TRUE(hasRaceBetween(replaced("384"), 9, 9));
}

TEST(PairCheck, TileShufflesInOneWarpsBranchLeaveTheBlockBarriersExact) {
  // Warp 0 scans the warp totals with a tile's shfl_up in a loop; the
  // barrier after its branch still orders its writes before the reads.
  auto result = analyzeCode(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(unsigned *out) {
  __shared__ unsigned totals[32];
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (tile.thread_rank() == 31) totals[tile.meta_group_rank()] = threadIdx.x;
  __syncthreads();
  if (tile.meta_group_rank() == 0) {
    unsigned v = totals[tile.thread_rank()];
    for (unsigned d = 1; d < 32; d *= 2) v += tile.shfl_up(v, d);
    totals[tile.thread_rank()] = v;
  }
  __syncthreads();
  if (tile.meta_group_rank() > 0) out[threadIdx.x] = totals[tile.meta_group_rank() - 1];
}
int main() { unsigned *o; cudaMalloc(&o, 4096); k<<<1, 120>>>(o); }
)");
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
}

TEST(PairCheck, FixedTileSidesBoundTheBlockOnlyWithoutALaunch) {
  // tile[ty][tx] with tx past 15 is outside the tile. With no launch in
  // sight that thread is not assumed to exist; a launch of 32 x 16
  // threads has it, and its store overlaps the next row's.
  const std::string kernel = R"(
__global__ void k(float *out) {
  __shared__ float tile[16][16];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * blockDim.x + threadIdx.x] = tile[threadIdx.x % 16][threadIdx.y];
}
)";
  auto unlaunched = analyzeCode(kernel);
  EXPECT_GT(unlaunched.pairs_checked(), 0);
  EXPECT_FALSE(hasRaceBetween(unlaunched, 4, 4)) << unlaunched.DebugString();
  auto launched = analyzeCode(
      kernel + "int main() { float *o; cudaMalloc(&o, 4096); k<<<1, dim3(32, 16)>>>(o); }\n");
  EXPECT_TRUE(hasRaceBetween(launched, 4, 4)) << launched.DebugString();
}

TEST(PairCheck, BarrierAfterALoopNestOrdersWhatCameBeforeTheNest) {
  // The inner loop's trip count is a function of the outer iteration;
  // it is never negative for either thread, so the barrier count after
  // the nest is at least the count before it and the last barrier orders
  // the first store before the read. Without it, and with n = 2 (no
  // stage runs), they race.
  const std::string code = R"(
__global__ void k(unsigned *d, unsigned n) {
  __shared__ unsigned s[512];
  s[threadIdx.x] = d[threadIdx.x];
  for (unsigned size = 2; size < n; size <<= 1)
    for (unsigned j = 0; j < 2; ++j)
      __syncthreads();
  SYNC
  d[threadIdx.x] = s[threadIdx.x ^ 1];
}
int main() { unsigned *d; cudaMalloc(&d, 4096); k<<<1, 512>>>(d, N); }
)";
  auto with = [&](const char *sync, const char *n) {
    std::string text = code;
    text.replace(text.find("SYNC"), 4, sync);
    text.replace(text.find("N)"), 1, n);
    return analyzeCode(text);
  };
  auto ordered = with("__syncthreads();", "64");
  EXPECT_GT(ordered.pairs_checked(), 0);
  EXPECT_TRUE(findings(ordered).empty()) << ordered.DebugString();
  EXPECT_TRUE(hasRaceBetween(with("", "2"), 4, 9));
}

TEST(PairCheck, AFlagClearedByEveryThreadAndTestedAtALoopsHeadIsOneValue) {
  // Every thread clears `found` and tests it at each head of a loop whose
  // iterations run a scan of barriers (a trip count the model does not
  // fix); threads set it only before an iteration's last barrier. The
  // clear races only with reads that return the cleared value, and the
  // reads at later heads come after a barrier. Without that barrier, a
  // thread setting the flag races with the next iteration's test.
  const std::string code = R"(
__global__ void pick(const float *p, const float *s, int *dest, int rows, int cols) {
  __shared__ bool found;
  __shared__ float scan[256];
  for (int d = blockIdx.x; d < rows; d += gridDim.x) {
    __syncthreads();
    found = false;
    for (int c = 0; c < (cols + 255) / 256 && !found; ++c) {
      scan[threadIdx.x] = p[d * cols + c * 256 + threadIdx.x];
      for (int o = 1; o < blockDim.x; o *= 2) {
        __syncthreads();
        float v = threadIdx.x >= o ? scan[threadIdx.x - o] : 0.0f;
        __syncthreads();
        scan[threadIdx.x] += v;
      }
      if (scan[threadIdx.x] > s[d]) found = true;
      LAST
    }
    __syncthreads();
    if (threadIdx.x == 0 && found) dest[d] = 1;
  }
}
int main() {
  float *p, *s; int *d;
  cudaMalloc(&p, 1 << 22); cudaMalloc(&s, 4096); cudaMalloc(&d, 4096);
  pick<<<64, 256>>>(p, s, d, 1000, 768);
}
)";
  auto with = [&](const char *last) { return analyzeReplacing(code, "LAST", last); };
  auto ordered = with("__syncthreads();");
  EXPECT_TRUE(findings(ordered).empty()) << ordered.DebugString();
  bool benign = false;
  for (const v1::RaceCandidate &c : ordered.candidates())
    benign |= c.first().location().line() == 7 && c.second().location().line() == 8 &&
              !c.benign().empty();
  EXPECT_TRUE(benign) << ordered.DebugString();
  EXPECT_TRUE(hasRaceBetween(with(""), 8, 16));
}

TEST(PairCheck, AConditionalLvalueReadsOnlyTheBranchTaken) {
  const std::string code = R"(
__global__ void bump(int *out, const int *in, int n, int passes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    for (int pass = 0; pass < passes; ++pass)
      out[i] = (pass == 0 ? in[i] : out[INDEX]) + 1;
}
int main() { int *a, *b; cudaMalloc(&a, 1 << 20); cudaMalloc(&b, 1 << 20); bump<<<256, 256>>>(a, b, 65536, 3); }
)";
  auto with = [&](const char *index) { return analyzeReplacing(code, "INDEX", index); };
  auto own = with("i");
  EXPECT_EQ(own.candidates_size(), 0) << own.DebugString();
  EXPECT_TRUE(hasRaceBetween(with("i + 1"), 6, 6));
}

TEST(PairCheck, APartnerByXorWithAPowerOfTwoStrideIsExact) {
  // A bitonic step: thread i pairs with i ^ j, j a power of two from the
  // host's stage loops, and only the lower of each pair swaps. Without the
  // `p > i` test both threads of a pair swap the same two elements.
  const std::string code = R"(
__global__ void step(int *t, unsigned n, unsigned j) {
  unsigned i = threadIdx.x + blockDim.x * blockIdx.x;
  unsigned p = i ^ j;
  if (i < n && LOWER) {
    int a = t[i], b = t[p];
    if (a > b) { t[i] = b; t[p] = a; }
  }
}
int main() {
  unsigned n = 1 << 16; int *t; cudaMalloc(&t, n * sizeof(int));
  for (unsigned k = 2; k <= n; k <<= 1)
    for (unsigned j = k >> 1; j > 0; j >>= 1)
      step<<<n / 256, 256>>>(t, n, j);
}
)";
  auto with = [&](const char *lower) { return analyzeReplacing(code, "LOWER", lower); };
  auto lower_only = with("p > i");
  EXPECT_TRUE(findings(lower_only).empty()) << lower_only.DebugString();
  EXPECT_FALSE(findings(with("p < n")).empty());
}

TEST(PairCheck, ThreadsThatFlipTheSameBitIntoOneElementAreOneThread) {
  // A bitonic network in one block, whose stages run to blockDim.x with no
  // launch in view: in each step a thread that must swap writes its
  // partner's element `tid ^ j`. Two threads of one step write one element
  // only if they are one thread, which the cases per power of two leave
  // the solver to find by search: the stores are decided race-free, not
  // left to the effort limit. Without the barrier between the reads and
  // the store, a thread's store races with its partner's read.
  const std::string code = R"(
__global__ void network(unsigned *data) {
  __shared__ unsigned keys[1024];
  keys[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  for (unsigned k = 2; k <= blockDim.x; k *= 2)
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      unsigned partner = threadIdx.x ^ j;
      unsigned mine = keys[threadIdx.x], theirs = keys[partner];
      BARRIER
      unsigned ascend = k * (partner < threadIdx.x);
      bool swap = false;
      if ((threadIdx.x & k) == ascend && mine > theirs)
        swap = true;
      if (swap)
        keys[partner] = mine;
      __syncthreads();
    }
  data[threadIdx.x] = keys[threadIdx.x];
}
)";
  AnalyzeOptions options;
  options.query_timeout_ms = 600000;
  v1::AnalysisResult ordered = analyzeCode(
      std::string(code).replace(code.find("BARRIER"), 7, "__syncthreads();"), options);
  EXPECT_TRUE(ordered.errors().empty()) << ordered.DebugString();
  for (const v1::RaceCandidate &candidate : ordered.candidates())
    if (candidate.first().location().line() == 16 || candidate.second().location().line() == 16)
      ADD_FAILURE() << "the partner's store is not decided race-free:\n" << candidate.DebugString();
  v1::AnalysisResult unordered =
      analyzeCode(std::string(code).replace(code.find("BARRIER"), 7, ""), options);
  bool witnessed = false;
  for (const v1::RaceCandidate &candidate : unordered.candidates()) {
    unsigned first = candidate.first().location().line();
    unsigned second = candidate.second().location().line();
    witnessed |= ((first == 9 && second == 16) || (first == 16 && second == 9)) &&
                 candidate.has_witness();
  }
  EXPECT_TRUE(witnessed) << unordered.DebugString();
}

} // namespace
} // namespace gpurace::analyzer::testing
