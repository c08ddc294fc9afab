// Happens-before is transitive: a release handed on through other threads
// orders the first thread's accesses before the last one's, when every hop
// is fenced and scoped for the two threads it joins.
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace gpurace::analyzer::testing {
namespace {

// Block 0 writes and raises `ready`; block 1 waits for it and raises
// `forwarded` after RELAY_FENCE; block 2 waits for `forwarded` and reads.
const char *kRelay = R"(
__global__ void relay(int *value, int *ready, int *forwarded, int *out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    value[0] = 42;
    __threadfence();
    atomicExch(ready, 1);
  } else if (blockIdx.x == 1) {
    while (atomicAdd(ready, 0) == 0) {}
    %s
    atomicExch(forwarded, 1);
  } else if (blockIdx.x == 2) {
    while (atomicAdd(forwarded, 0) == 0) {}
    __threadfence();
    out[0] = value[0];
  }
}
int main() {
  int *v, *r, *f, *o;
  cudaMalloc(&v, 4); cudaMalloc(&r, 4); cudaMalloc(&f, 4); cudaMalloc(&o, 4);
  relay<<<3, 32>>>(v, r, f, o);
}
)";

v1::AnalysisResult relayWith(const char *fence) {
  char code[2048];
  std::snprintf(code, sizeof code, kRelay, fence);
  return analyzeCode(code);
}

constexpr unsigned kWrite = 5, kRead = 15;

TEST(TransitiveHandoff, AReleaseHandedOnThroughAThirdBlockOrdersTheAccesses) {
  auto result = relayWith("__threadfence();");
  EXPECT_FALSE(hasRaceBetween(result, kWrite, kRead)) << result.DebugString();
  EXPECT_TRUE(findings(result).empty()) << result.DebugString();
}

TEST(TransitiveHandoff, ABlockScopeFenceInTheRelayBreaksTheChainAcrossBlocks) {
  auto result = relayWith("__threadfence_block();");
  EXPECT_TRUE(hasRaceBetween(result, kWrite, kRead)) << result.DebugString();
}

TEST(TransitiveHandoff, ARelayWithoutAFenceOrdersNothing) {
  auto result = relayWith("");
  EXPECT_TRUE(hasRaceBetween(result, kWrite, kRead)) << result.DebugString();
}

TEST(TransitiveHandoff, TwoRelaysInOneLoopOfStagesOrderTheEnds) {
  auto result = analyzeCode(R"(
__global__ void chain(int *partial, int *done, int *total) {
  if (threadIdx.x != 0) return;
  int b = blockIdx.x;
  if (b == 0) {
    partial[0] = 3;
    __threadfence();
    atomicExch(&done[0], 1);
  } else if (b == 1 || b == 2) {
    while (atomicAdd(&done[b - 1], 0) == 0) {}
    __threadfence();
    atomicExch(&done[b], 1);
  } else if (b == 3) {
    while (atomicAdd(&done[2], 0) == 0) {}
    __threadfence();
    total[0] = partial[0] * 2;
  }
}
int main() { int *p, *d, *t; cudaMalloc(&p, 4); cudaMalloc(&d, 12); cudaMalloc(&t, 4); chain<<<4, 32>>>(p, d, t); }
)");
  EXPECT_FALSE(hasRaceBetween(result, 6, 16)) << result.DebugString();
}

TEST(TransitiveHandoff, AChainThatSkipsTheReadersStageStillRaces) {
  // Block 3 waits for stage 0 only: block 0's second write comes after its
  // release, so nothing orders it before block 3's read.
  auto result = analyzeCode(R"(
__global__ void early(int *partial, int *done, int *total) {
  if (threadIdx.x != 0) return;
  int b = blockIdx.x;
  if (b == 0) {
    partial[0] = 3;
    __threadfence();
    atomicExch(&done[0], 1);
    partial[1] = 4;
  } else if (b == 1) {
    while (atomicAdd(&done[0], 0) == 0) {}
    __threadfence();
    atomicExch(&done[1], 1);
  } else if (b == 3) {
    while (atomicAdd(&done[1], 0) == 0) {}
    __threadfence();
    total[0] = partial[0] + partial[1];
  }
}
int main() { int *p, *d, *t; cudaMalloc(&p, 8); cudaMalloc(&d, 8); cudaMalloc(&t, 4); early<<<4, 32>>>(p, d, t); }
)");
  EXPECT_FALSE(hasRaceBetween(result, 6, 17)) << result.DebugString();
  EXPECT_TRUE(hasRaceBetween(result, 9, 17)) << result.DebugString();
}

} // namespace
} // namespace gpurace::analyzer::testing
