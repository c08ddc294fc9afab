//===- DetectorBench.cpp - detector throughput and memory per thread ------===//
//
// A launch of 4096 blocks x 256 threads (1M threads) in which every warp
// stores, passes a barrier and loads its neighbour's data, plus a variant
// with shared-memory style reuse. Reports records and lane accesses per
// second on one core, and clock and shadow memory per thread.
//
//===----------------------------------------------------------------------===//
#include "runtime/detector/Detector.h"

#include <benchmark/benchmark.h>

#include <vector>

namespace gpurace::rt {
namespace {

WarpRecord access(uint8_t op, uint32_t site, uint32_t block, uint32_t warp,
                  uint64_t base) {
  WarpRecord r{};
  r.op = op;
  r.site = site;
  r.block = block;
  r.warp = uint16_t(warp);
  r.active_mask = 0xffffffffu;
  r.size = 4;
  for (uint32_t l = 0; l < kWarpSize; ++l)
    r.address[l] = base + 4 * l;
  return r;
}

// Each warp: `rounds` x (store own slice, barrier, load neighbour's slice).
std::vector<WarpRecord> stencilTrace(const LaunchLayout &layout, int rounds) {
  std::vector<WarpRecord> trace;
  uint32_t warps = uint32_t(layout.warpsPerBlock());
  for (uint32_t b = 0; b < layout.numBlocks(); ++b) {
    uint64_t block_base = 0x10000000ull + uint64_t(b) * warps * 128;
    for (int round = 0; round < rounds; ++round) {
      for (uint32_t w = 0; w < warps; ++w)
        trace.push_back(access(kOpWrite, 0, b, w, block_base + w * 128));
      for (uint32_t w = 0; w < warps; ++w) {
        WarpRecord bar{};
        bar.op = kOpBarrier;
        bar.site = 2;
        bar.block = b;
        bar.warp = uint16_t(w);
        bar.active_mask = 0xffffffffu;
        trace.push_back(bar);
      }
      for (uint32_t w = 0; w < warps; ++w)
        trace.push_back(access(kOpRead, 1, b, w, block_base + ((w + 1) % warps) * 128));
      for (uint32_t w = 0; w < warps; ++w) {
        WarpRecord bar{};
        bar.op = kOpBarrier;
        bar.site = 3;
        bar.block = b;
        bar.warp = uint16_t(w);
        bar.active_mask = 0xffffffffu;
        trace.push_back(bar);
      }
    }
  }
  return trace;
}

void BM_DetectMillionThreads(benchmark::State &state) {
  LaunchLayout layout({4096, 1, 1}, {256, 1, 1});
  std::vector<WarpRecord> trace = stencilTrace(layout, int(state.range(0)));
  DetectorStats stats;
  for (auto _ : state) {
    Detector detector(layout);
    for (const WarpRecord &r : trace)
      detector.process(r);
    benchmark::DoNotOptimize(detector.races().size());
    stats = detector.stats();
  }
  double threads = double(layout.numThreads());
  state.SetItemsProcessed(int64_t(state.iterations() * trace.size()));
  state.counters["records/s"] = benchmark::Counter(
      double(trace.size()) * state.iterations(), benchmark::Counter::kIsRate);
  state.counters["threads"] = threads;
  state.counters["clock_bytes/thread"] = double(stats.clock_bytes) / threads;
  // Each shadow word: key + two small vectors + hash node, about 80 bytes.
  state.counters["shadow_words/thread"] = double(stats.shadow_words) / threads;
}
BENCHMARK(BM_DetectMillionThreads)->Arg(1)->Arg(4)->Unit(benchmark::kMillisecond);

// Each warp stores once through a permutation (bench/runtime/overhead's
// scatter): every lane a word of its own, far from its neighbours', so
// each record brings 32 new shadow words.
void BM_DetectScatter(benchmark::State &state) {
  LaunchLayout layout({uint32_t(state.range(0)), 1, 1}, {256, 1, 1});
  uint64_t threads = layout.numThreads();
  std::vector<WarpRecord> trace;
  uint32_t warps = uint32_t(layout.warpsPerBlock());
  for (uint32_t b = 0; b < layout.numBlocks(); ++b)
    for (uint32_t w = 0; w < warps; ++w) {
      WarpRecord r = access(kOpWrite, 0, b, w, 0);
      for (uint32_t l = 0; l < kWarpSize; ++l) {
        uint64_t i = (uint64_t(b) * warps + w) * kWarpSize + l;
        r.address[l] = 0x10000000ull + 4 * ((i * 7919) % threads);
      }
      trace.push_back(r);
    }
  for (auto _ : state) {
    Detector detector(layout);
    for (const WarpRecord &r : trace)
      detector.process(r);
    benchmark::DoNotOptimize(detector.races().size());
  }
  state.counters["records/s"] = benchmark::Counter(
      double(trace.size()) * state.iterations(), benchmark::Counter::kIsRate);
  state.counters["ns/lane"] = benchmark::Counter(
      double(trace.size()) * kWarpSize * state.iterations(),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_DetectScatter)->Arg(16)->Arg(256)->Arg(4096)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace gpurace::rt

BENCHMARK_MAIN();
