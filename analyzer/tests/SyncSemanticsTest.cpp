// Synchronization beyond block barriers: grid syncs of cooperative groups,
// warp barriers with masks, fences, locks and flags.
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <utility>

namespace gpurace::analyzer::testing {
namespace {

bool hasDivergenceAt(const v1::AnalysisResult &result, unsigned line) {
  for (const auto &c : findings(result, v1::RACE_CLASS_BARRIER_DIVERGENCE))
    if (c.first().location().line() == line)
      return true;
  return false;
}

TEST(SyncSemantics, GridSyncOrdersBlocksAcrossIt) {
  const char *code = R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void twoPhase(float *partial, float *out) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) partial[blockIdx.x] = 1.0f;
  %s
  if (blockIdx.x == 0 && threadIdx.x == 0) *out = partial[gridDim.x - 1];
}
int main() {
  float *p, *o; cudaMalloc(&p, 4096); cudaMalloc(&o, 4);
  void *args[] = {&p, &o};
  cudaLaunchCooperativeKernel((void *)twoPhase, 8, 32, args);
}
)";
  char synced[1024], unsynced[1024];
  std::snprintf(synced, sizeof synced, code, "grid.sync();");
  std::snprintf(unsynced, sizeof unsynced, code, "__syncthreads();");
  EXPECT_TRUE(findings(analyzeCode(synced)).empty());
  auto racy = analyzeCode(unsynced);
  EXPECT_FALSE(findings(racy, v1::RACE_CLASS_INTER_BLOCK).empty()) << racy.DebugString();
}

TEST(SyncSemantics, ThreadBlockSyncIsABlockBarrier) {
  auto result = analyzeCode(R"(
#include <cooperative_groups.h>
__global__ void rotate(int *out) {
  __shared__ int s[64];
  cooperative_groups::thread_block block = cooperative_groups::this_thread_block();
  s[threadIdx.x] = threadIdx.x;
  block.sync();
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
int main() { int *o; cudaMalloc(&o, 256); rotate<<<1, 64>>>(o); }
)");
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
}

TEST(SyncSemantics, GridSyncReachedByOnlySomeBlocksDiverges) {
  auto result = analyzeCode(R"(
#include <cooperative_groups.h>
__global__ void phases(int *a) {
  auto grid = cooperative_groups::this_grid();
  if (blockIdx.x > 0)
    grid.sync();
  a[blockIdx.x] = 1;
}
int main() { int *a; cudaMalloc(&a, 64); phases<<<4, 32>>>(a); }
)");
  EXPECT_TRUE(hasDivergenceAt(result, 6)) << result.DebugString();
}

TEST(SyncSemantics, SyncwarpDivergesOnlyForLanesInItsMask) {
  const char *code = R"(
__global__ void half(int *a) {
  int lane = threadIdx.x %% 32;
  if (lane < 16)
    __syncwarp(%s);
  a[threadIdx.x] = lane;
}
int main() { int *a; cudaMalloc(&a, 4096); half<<<1, 64>>>(a); }
)";
  char lower[512], full[512];
  std::snprintf(lower, sizeof lower, code, "0x0000ffff");
  std::snprintf(full, sizeof full, code, "");
  EXPECT_FALSE(hasDivergenceAt(analyzeCode(lower), 5));
  auto diverging = analyzeCode(full);
  EXPECT_TRUE(hasDivergenceAt(diverging, 5)) << diverging.DebugString();
}

TEST(SyncSemantics, PartialSyncwarpOrdersOnlyTheLanesOfItsMask) {
  const char *code = R"(
__global__ void halves(const float *in, float *out) {
  __shared__ float buf[32];
  int lane = threadIdx.x;
  buf[lane] = in[lane];
  if (lane < 16) {
    __syncwarp(0x0000ffff);
    out[lane] = buf[lane] + buf[%s];
  }
}
int main() { float *i, *o; cudaMalloc(&i, 128); cudaMalloc(&o, 64); halves<<<1, 32>>>(i, o); }
)";
  char inside[1024], outside[1024];
  std::snprintf(inside, sizeof inside, code, "15 - lane");
  std::snprintf(outside, sizeof outside, code, "lane + 16");
  EXPECT_TRUE(findings(analyzeCode(inside)).empty());
  // Lane 16 writes buf[16] and never joins the lower half's __syncwarp.
  auto racy = analyzeCode(outside);
  EXPECT_TRUE(hasRaceBetween(racy, 5, 8)) << racy.DebugString();
}

// A spin lock around a per-block total: %1$s is the lock word, %2$s the
// fence on both sides, %3$s the scope suffix of the lock's atomics.
const char *kLockedSum = R"(
__device__ void lock(int *m) {
  while (atomicCAS%3$s(m, 0, 1) != 0) {
  }
  %2$s;
}
__device__ void unlock(int *m) {
  %2$s;
  atomicExch%3$s(m, 0);
}
__global__ void sum(const float *in, float *total, int *mutex) {
  if (threadIdx.x == 0) {
    lock(&mutex[%1$s]);
    *total += in[blockIdx.x];
    unlock(&mutex[%1$s]);
  }
}
int main() {
  float *in, *t; int *m;
  cudaMalloc(&in, 4096); cudaMalloc(&t, 4); cudaMalloc(&m, 4096);
  sum<<<64, 128>>>(in, t, m);
}
)";

std::vector<v1::RaceCandidate> lockedSumRaces(const char *word, const char *fence,
                                               const char *scope) {
  char code[2048];
  std::snprintf(code, sizeof code, kLockedSum, word, fence, scope);
  return findings(analyzeCode(code));
}

TEST(SyncSemantics, DeviceScopeLockWithFencesOrdersCriticalSections) {
  auto races = lockedSumRaces("0", "__threadfence()", "");
  EXPECT_TRUE(races.empty()) << (races.empty() ? "" : races[0].DebugString());
}

TEST(SyncSemantics, LockWithoutFencesIsAMissingDeviceFence) {
  auto races = lockedSumRaces("0", "(void)0", "");
  ASSERT_FALSE(races.empty());
  EXPECT_EQ(races[0].race_class(), v1::RACE_CLASS_INTER_BLOCK);
  EXPECT_EQ(races[0].defect(), v1::SYNC_DEFECT_MISSING_DEVICE_FENCE);
}

TEST(SyncSemantics, BlockScopeLockIsTooNarrowForOtherBlocks) {
  for (auto [fence, scope] : {std::pair{"__threadfence_block()", ""},
                              std::pair{"__threadfence()", "_block"}}) {
    auto races = lockedSumRaces("0", fence, scope);
    ASSERT_FALSE(races.empty()) << fence << scope;
    EXPECT_EQ(races[0].race_class(), v1::RACE_CLASS_SCOPED);
    EXPECT_EQ(races[0].defect(), v1::SYNC_DEFECT_LOCK_SCOPE_TOO_NARROW);
    EXPECT_EQ(races[0].insufficient_scope(), v1::MEMORY_SCOPE_BLOCK);
    EXPECT_EQ(races[0].first().location().line(), 14u); // *total += ...
  }
}

TEST(SyncSemantics, PerBlockLocksAreDifferentLockAddresses) {
  auto races = lockedSumRaces("blockIdx.x", "__threadfence()", "");
  ASSERT_FALSE(races.empty());
  EXPECT_EQ(races[0].defect(), v1::SYNC_DEFECT_DIFFERENT_LOCK_ADDRESSES);
  // The witness has two blocks, whose locks differ.
  EXPECT_NE(races[0].witness().first().block_idx().x(),
            races[0].witness().second().block_idx().x());
}

// Block 0 produces, block %1$s consumes, through a flag and %2$s.
const char *kHandoff = R"(
__global__ void handoff(int *data, int *flag, int *out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;
    %2$s;
    atomicExch(flag, 1);
  } else if (blockIdx.x == %1$s) {
    while (atomicAdd(flag, 0) == 0) {
    }
    %2$s;
    out[0] = data[0];
  }
}
int main() {
  int *d, *f, *o; cudaMalloc(&d, 4); cudaMalloc(&f, 4); cudaMalloc(&o, 4);
  handoff<<<2, 32>>>(d, f, o);
}
)";

v1::AnalysisResult analyzeHandoff(const char *consumer, const char *fence) {
  char code[2048];
  std::snprintf(code, sizeof code, kHandoff, consumer, fence);
  return analyzeCode(code);
}

std::vector<v1::RaceCandidate> handoffRaces(const char *consumer, const char *fence) {
  return findings(analyzeHandoff(consumer, fence));
}

TEST(SyncSemantics, FlagWithDeviceFencesOrdersProducerAndConsumer) {
  EXPECT_TRUE(handoffRaces("1", "__threadfence()").empty());
}

TEST(SyncSemantics, FlagWithBlockFencesOrdersOnlyWithinTheBlock) {
  // Producer and consumer in one block: a block fence is enough.
  auto same_block = analyzeCode(R"(
__global__ void handoff(int *data, int *flag, int *out) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = 42;
    __threadfence_block();
    atomicExch(&flag[blockIdx.x], 1);
  } else if (threadIdx.x == 32) {
    while (atomicAdd(&flag[blockIdx.x], 0) == 0) {
    }
    __threadfence_block();
    out[blockIdx.x] = data[blockIdx.x];
  }
}
int main() {
  int *d, *f, *o; cudaMalloc(&d, 64); cudaMalloc(&f, 64); cudaMalloc(&o, 64);
  handoff<<<16, 64>>>(d, f, o);
}
)");
  EXPECT_TRUE(findings(same_block).empty()) << same_block.DebugString();
  auto result = analyzeHandoff("1", "__threadfence_block()");
  auto races = findings(result);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races[0].race_class(), v1::RACE_CLASS_SCOPED);
  EXPECT_EQ(races[0].defect(), v1::SYNC_DEFECT_MISSING_DEVICE_FENCE);
  EXPECT_TRUE(hasRaceBetween(result, 5, 12)); // data[0] = 42 and out[0] = data[0]
}

TEST(SyncSemantics, FlagWithoutFencesIsAMissingFence) {
  auto races = handoffRaces("1", "(void)0");
  ASSERT_FALSE(races.empty());
  EXPECT_EQ(races[0].defect(), v1::SYNC_DEFECT_MISSING_DEVICE_FENCE);
  EXPECT_EQ(races[0].race_class(), v1::RACE_CLASS_INTER_BLOCK);
}

TEST(SyncSemantics, ScopedAtomicRefReleaseAndAcquireAreAFlag) {
  const char *code = R"(
#include <cuda/atomic>
__global__ void handoff(int *data, int *flag, int *out) {
  cuda::atomic_ref<int, cuda::thread_scope_%s> f(*flag);
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;
    f.store(1, cuda::memory_order_release);
  } else {
    while (f.load(cuda::memory_order_acquire) == 0) {
    }
    out[0] = data[0];
  }
}
int main() {
  int *d, *f, *o; cudaMalloc(&d, 4); cudaMalloc(&f, 4); cudaMalloc(&o, 4);
  handoff<<<2, 32>>>(d, f, o);
}
)";
  char device[2048], block[2048];
  std::snprintf(device, sizeof device, code, "device");
  std::snprintf(block, sizeof block, code, "block");
  EXPECT_TRUE(findings(analyzeCode(device)).empty());
  auto races = findings(analyzeCode(block));
  ASSERT_FALSE(races.empty());
  EXPECT_EQ(races[0].race_class(), v1::RACE_CLASS_SCOPED);
}

// nvcc's builtins (CUDA 12.8 on) say the same with arguments: the order
// and the scope of each call.
TEST(SyncSemantics, NvAtomicBuiltinsReleaseAndAcquireWithTheirArguments) {
  const char *code = R"(
__global__ void handoff(int *data, int *flag, int *out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;
    __nv_atomic_store_n(flag, 1, __NV_ATOMIC_%s, __NV_THREAD_SCOPE_%s);
  } else {
    while (__nv_atomic_load_n(flag, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE) == 0) {
    }
    out[0] = data[0];
  }
}
int main() {
  int *d, *f, *o; cudaMalloc(&d, 4); cudaMalloc(&f, 4); cudaMalloc(&o, 4);
  handoff<<<2, 32>>>(d, f, o);
}
)";
  auto analyzed = [&](const char *order, const char *scope) {
    char text[2048];
    std::snprintf(text, sizeof text, code, order, scope);
    return analyzeCode(text);
  };
  v1::AnalysisResult released = analyzed("RELEASE", "DEVICE");
  EXPECT_EQ(released.errors_size(), 0) << released.DebugString();
  EXPECT_TRUE(findings(released).empty()) << released.DebugString();
  // A relaxed store orders nothing before it.
  auto relaxed = findings(analyzed("RELAXED", "DEVICE"));
  ASSERT_FALSE(relaxed.empty());
  EXPECT_EQ(relaxed[0].race_class(), v1::RACE_CLASS_INTER_BLOCK);
  // A block-scope store is not atomic to the other block's load.
  auto block = findings(analyzed("RELEASE", "BLOCK"));
  ASSERT_FALSE(block.empty());
  EXPECT_EQ(block[0].race_class(), v1::RACE_CLASS_SCOPED);
}

constexpr const char *kAppend = R"(
__global__ void append(const int *in, int *out, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int slot = atomicAdd(count, %s);
    out[slot] = in[i];
  }
}
int main() {
  int *in, *out, *count;
  cudaMalloc(&in, 4096); cudaMalloc(&out, 4096); cudaMalloc(&count, 4);
  append<<<4, 256>>>(in, out, count, 1024);
}
)";

TEST(SyncSemantics, AtomicIncrementHandsEachThreadItsOwnSlot) {
  char by_one[1024], by_flag[1024];
  std::snprintf(by_one, sizeof by_one, kAppend, "1");
  std::snprintf(by_flag, sizeof by_flag, kAppend, "in[i] > 0");
  auto distinct = analyzeCode(by_one);
  EXPECT_TRUE(findings(distinct).empty()) << distinct.DebugString();
  bool states_assumption = false;
  for (const auto &a : distinct.assumptions())
    states_assumption |= a.description().find("atomic counters do not wrap") == 0;
  EXPECT_TRUE(states_assumption) << distinct.DebugString();
  // Adding 0 leaves the counter where it was: two threads may share a slot.
  EXPECT_TRUE(hasRaceBetween(analyzeCode(by_flag), 6, 6));
}

constexpr const char *kLastBlock = R"(
__device__ unsigned int retired;
__global__ void finish(float *partial, float *result) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = 1.0f;
    __threadfence();
    unsigned int ticket = atomicInc(&retired, gridDim.x);
    last = ticket == gridDim.x - 1;
  }
  %s
  if (last && threadIdx.x == 0)
    *result = 2.0f;
}
int main() {
  float *p, *r;
  cudaMalloc(&p, 256 * 4); cudaMalloc(&r, 4);
  finish<<<256, 128>>>(p, r);
}
)";

TEST(SyncSemantics, TicketBroadcastAcrossABarrierPicksOneLastBlock) {
  char with_barrier[1024], without[1024];
  std::snprintf(with_barrier, sizeof with_barrier, kLastBlock, "__syncthreads();");
  std::snprintf(without, sizeof without, kLastBlock, "");
  // Thread 0 of each block wrote its own ticket's verdict; tickets differ
  // between blocks, so only one block writes the result.
  auto ordered = analyzeCode(with_barrier);
  EXPECT_FALSE(hasRaceBetween(ordered, 13, 13)) << ordered.DebugString();
  // Without the barrier the other threads may read `last` before it is
  // written: nothing is known of it, and the race on it is reported.
  auto unordered = analyzeCode(without);
  EXPECT_TRUE(hasRaceBetween(unordered, 9, 12)) << unordered.DebugString();
}

TEST(SyncSemantics, VolatileIsNotAtomicButCanBeAFencedFlag) {
  auto every_thread = analyzeCode(R"(
__global__ void last(volatile int *word) { *word = threadIdx.x; }
int main() { int *w; cudaMalloc(&w, 4); last<<<1, 64>>>(w); }
)");
  auto races = findings(every_thread, v1::RACE_CLASS_INTRA_WARP);
  ASSERT_FALSE(races.empty()) << every_thread.DebugString();
  EXPECT_EQ(races.front().defect(), v1::SYNC_DEFECT_VOLATILE_NOT_SYNCHRONIZING);

  auto handoff = analyzeCode(R"(
__global__ void publish(int *data, volatile int *flag, int *out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) { data[0] = 1; __threadfence(); *flag = 1; }
  else { while (*flag == 0) {} __threadfence(); out[0] = data[0]; }
}
int main() { int *d, *f, *o; cudaMalloc(&d, 4); cudaMalloc(&f, 4); cudaMalloc(&o, 4);
  publish<<<2, 32>>>(d, f, o); }
)");
  EXPECT_EQ(handoff.candidates_size(), 0) << handoff.DebugString();
}

TEST(SyncSemantics, WarpSynchronousVolatileCodeRacesUnlessLanesRunInLockStep) {
  const char *code = R"(
__global__ void fold(float *out) {
  __shared__ float s[48];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x < 32) { volatile float *v = s; v[threadIdx.x] += v[threadIdx.x + 16]; }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
int main() { float *o; cudaMalloc(&o, 64); fold<<<4, 48>>>(o); }
)";
  auto independent = analyzeCode(code);
  EXPECT_FALSE(findings(independent, v1::RACE_CLASS_INTRA_WARP).empty())
      << independent.DebugString();
  AnalyzeOptions lockstep;
  lockstep.assume_warp_lockstep = true;
  auto old_reading = analyzeCode(code, lockstep);
  EXPECT_EQ(old_reading.candidates_size(), 0) << old_reading.DebugString();
}

// A library header, as the toolkit's are: on a system include path. Its
// barrier is two calls deep, as CUB's BlockReduce keeps its own.
const char *const kBlockLibrary = R"(
namespace blocklib {
__device__ inline void arrive() { __syncthreads(); }
__device__ inline void meet() { arrive(); }
}
)";

v1::AnalysisResult analyzeWithLibrary(const char *kernel, const char *between) {
  TempSource library(kBlockLibrary, "blocklib.h");
  char code[1024];
  std::snprintf(code, sizeof code, kernel, between);
  AnalyzeOptions options;
  options.extra_flags = {"-isystem",
                         std::filesystem::path(library.path()).parent_path().string()};
  return analyzeCode(code, options);
}

TEST(SyncSemantics, ABarrierInsideALibraryCallOrdersLikeOneInTheKernel) {
  const char *kernel = R"(#include <blocklib.h>
__global__ void rescale(float *s, const float *in, float *out) {
  float v = s[blockIdx.x] * in[blockIdx.x * blockDim.x + threadIdx.x];
  %s
  if (threadIdx.x == 0) s[blockIdx.x] = v;
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
int main() {
  float *s, *in, *out;
  cudaMalloc(&s, 4096); cudaMalloc(&in, 1 << 20); cudaMalloc(&out, 1 << 20);
  rescale<<<16, 256>>>(s, in, out);
}
)";
  auto ordered = analyzeWithLibrary(kernel, "blocklib::meet();");
  EXPECT_TRUE(ordered.errors().empty()) << ordered.DebugString();
  EXPECT_TRUE(findings(ordered).empty()) << ordered.DebugString();
  auto unordered = analyzeWithLibrary(kernel, "");
  EXPECT_TRUE(hasRaceBetween(unordered, 3, 5)) << unordered.DebugString();
}

TEST(SyncSemantics, ALibraryBarrierNotAllThreadsReachIsShownAtTheCall) {
  const char *kernel = R"(#include <blocklib.h>
__global__ void rescale(float *s, const float *in) {
  float v = s[blockIdx.x] * in[blockIdx.x * blockDim.x + threadIdx.x];
  %s
  if (threadIdx.x == 0) s[blockIdx.x] = v;
}
int main() {
  float *s, *in;
  cudaMalloc(&s, 4096); cudaMalloc(&in, 1 << 20);
  rescale<<<16, 256>>>(s, in);
}
)";
  auto result = analyzeWithLibrary(kernel, "if (threadIdx.x < 32) blocklib::meet();");
  auto divergent = findings(result, v1::RACE_CLASS_BARRIER_DIVERGENCE);
  ASSERT_EQ(divergent.size(), 1u) << result.DebugString();
  EXPECT_EQ(divergent.front().first().location().line(), 4u);
  EXPECT_EQ(divergent.front().first().expression(), "blocklib::meet()");
}

TEST(SyncSemantics, CubsBlockReduceOrdersTheThreadsOfItsBlock) {
  // cub::BlockReduce keeps its barrier a few calls below Reduce: the old
  // scale every thread reads is ordered before thread 0 stores the new
  // one. Read back with no barrier after that store, it races.
  const char *code = R"(#include <cub/cub.cuh>
__global__ void rescale(float *scale, float *value) {
  using BlockMax = cub::BlockReduce<float, 128>;
  __shared__ BlockMax::TempStorage scratch;
  int i = blockIdx.x * 128 + threadIdx.x;
  float v = value[i] * scale[blockIdx.x];
  float m = BlockMax(scratch).Reduce(v, cuda::maximum<float>());
  if (threadIdx.x == 0) scale[blockIdx.x] = m;
  %s
}
int main() {
  float *s, *v;
  cudaMalloc(&s, 1024); cudaMalloc(&v, 1 << 20);
  rescale<<<256, 128>>>(s, v);
}
)";
  char ordered_text[1024], racy_text[1024];
  std::snprintf(ordered_text, sizeof ordered_text, code, "value[i] = v;");
  std::snprintf(racy_text, sizeof racy_text, code, "value[i] = v / scale[blockIdx.x];");
  auto ordered = analyzeCode(ordered_text);
  if (ordered.front_end().headers() != "toolkit")
    GTEST_SKIP() << "no CUDA toolkit found: CUB's headers come with it";
  EXPECT_TRUE(ordered.errors().empty()) << ordered.DebugString();
  EXPECT_TRUE(findings(ordered).empty()) << ordered.DebugString();
  auto racy = analyzeCode(racy_text);
  EXPECT_TRUE(hasRaceBetween(racy, 8, 9)) << racy.DebugString();
  EXPECT_FALSE(hasRaceBetween(racy, 6, 8)) << racy.DebugString();
}

// A cache hint (`__ldg`, `__ldcs`, `__stcs`, `__stwt`, ...) changes where
// the data is cached, not what the access races with: each is the load or
// store it is, with the toolkit's headers and with the fallback ones.
TEST(SyncSemantics, LoadsAndStoresWithCacheHintsAreAccesses) {
  const char *code = R"(
__global__ void halve(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __stcs(out + i / %d, __ldg(in + i));
    __stwt(&out[n + i], __ldcs(out + %s));
  }
}
int main() {
  float *out, *in;
  cudaMalloc(&out, 8192 * sizeof(float));
  cudaMalloc(&in, 4096 * sizeof(float));
  halve<<<16, 256>>>(out, in, 4096);
}
)";
  for (bool fallback : {false, true}) {
    AnalyzeOptions options;
    options.fallback_headers = fallback;
    char safe[1024], racy[1024];
    std::snprintf(safe, sizeof safe, code, 1, "n + i");
    std::snprintf(racy, sizeof racy, code, 2, "i + 1");
    auto race_free = analyzeCode(safe, options);
    EXPECT_TRUE(findings(race_free).empty()) << fallback << "\n" << race_free.DebugString();
    EXPECT_EQ(race_free.errors_size(), 0) << race_free.DebugString();
    auto result = analyzeCode(racy, options);
    // Two threads store to one element, and a thread's __ldcs reads what
    // another's __stcs writes.
    EXPECT_TRUE(hasRaceBetween(result, 5, 5)) << fallback << "\n" << result.DebugString();
    EXPECT_TRUE(hasRaceBetween(result, 5, 6)) << fallback << "\n" << result.DebugString();
  }
}

} // namespace
} // namespace gpurace::analyzer::testing
