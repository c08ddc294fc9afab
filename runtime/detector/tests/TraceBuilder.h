//===- TraceBuilder.h - hand-built launch traces for tests ------*- C++ -*-===//
#ifndef GPURACE_RUNTIME_DETECTOR_TESTS_TRACEBUILDER_H
#define GPURACE_RUNTIME_DETECTOR_TESTS_TRACEBUILDER_H

#include "runtime/detector/Detector.h"

#include <functional>

namespace gpurace::rt::testing {

inline uint32_t lane(uint32_t n) { return 1u << n; }
constexpr uint32_t kFullWarp = 0xffffffffu;

// Appends warp records the way a device buffer would hold them, then runs
// the detector over them.
class TraceBuilder {
public:
  using AddressOf = std::function<uint64_t(uint32_t lane)>;

  TraceBuilder(Dims grid, Dims block) : layout_(grid, block) {}

  static AddressOf same(uint64_t address) {
    return [address](uint32_t) { return address; };
  }
  static AddressOf perLane(uint64_t base, uint64_t stride = 4) {
    return [base, stride](uint32_t l) { return base + l * stride; };
  }

  TraceBuilder &access(uint8_t op, uint32_t site, uint32_t block,
                       uint32_t warp, uint32_t mask, AddressOf address,
                       uint8_t size = 4, uint8_t scope = kScopeNone,
                       uint8_t flags = 0) {
    WarpRecord r = header(op, site, block, warp, mask);
    r.size = size;
    r.scope = scope;
    r.flags = flags;
    for (uint32_t l = 0; l < kWarpSize; ++l)
      if (mask & (1u << l))
        r.address[l] = address(l);
    records_.push_back(r);
    return *this;
  }
  TraceBuilder &write(uint32_t site, uint32_t block, uint32_t warp,
                      uint32_t mask, AddressOf address, uint8_t size = 4) {
    return access(kOpWrite, site, block, warp, mask, address, size);
  }
  TraceBuilder &read(uint32_t site, uint32_t block, uint32_t warp,
                     uint32_t mask, AddressOf address, uint8_t size = 4) {
    return access(kOpRead, site, block, warp, mask, address, size);
  }
  TraceBuilder &atomic(uint32_t site, uint32_t block, uint32_t warp,
                       uint32_t mask, AddressOf address,
                       uint8_t scope = kScopeDevice) {
    return access(kOpAtomic, site, block, warp, mask, address, 4, scope);
  }
  // A store that records the value each lane writes.
  TraceBuilder &store(uint32_t site, uint32_t block, uint32_t warp,
                      uint32_t mask, AddressOf address,
                      std::function<uint64_t(uint32_t)> value) {
    access(kOpWrite, site, block, warp, mask, address, 4, kScopeNone,
           kFlagValues);
    for (uint32_t l = 0; l < kWarpSize; ++l)
      records_.back().value[l] = value(l);
    return *this;
  }
  TraceBuilder &barrier(uint32_t site, uint32_t block, uint32_t warp,
                        uint32_t mask = kFullWarp) {
    records_.push_back(header(kOpBarrier, site, block, warp, mask));
    return *this;
  }
  // Every warp of every block reaches the same barrier.
  TraceBuilder &barrierAll(uint32_t site, uint32_t block) {
    for (uint32_t w = 0; w < layout_.warpsPerBlock(); ++w)
      barrier(site, block, w, layout_.liveLanes(w));
    return *this;
  }
  TraceBuilder &gridSync(uint32_t site, uint32_t block, uint32_t warp,
                         uint32_t mask = kFullWarp) {
    records_.push_back(header(kOpGridSync, site, block, warp, mask));
    return *this;
  }
  TraceBuilder &gridSyncAll(uint32_t site) {
    for (uint32_t b = 0; b < layout_.numBlocks(); ++b)
      for (uint32_t w = 0; w < layout_.warpsPerBlock(); ++w)
        records_.push_back(header(kOpGridSync, site, b, w, layout_.liveLanes(w)));
    return *this;
  }
  TraceBuilder &syncwarp(uint32_t site, uint32_t block, uint32_t warp,
                         uint32_t active, uint32_t member_mask) {
    WarpRecord r = header(kOpSyncWarp, site, block, warp, active);
    r.aux = member_mask;
    records_.push_back(r);
    return *this;
  }
  TraceBuilder &fence(uint32_t site, uint32_t block, uint32_t warp,
                      uint32_t mask, uint8_t scope = kScopeDevice) {
    WarpRecord r = header(kOpFence, site, block, warp, mask);
    r.scope = scope;
    records_.push_back(r);
    return *this;
  }
  TraceBuilder &raw(const WarpRecord &r) {
    records_.push_back(r);
    return *this;
  }

  const LaunchLayout &layout() const { return layout_; }

  Detector run() const {
    Detector detector(layout_);
    for (const WarpRecord &r : records_)
      detector.process(r);
    return detector;
  }

  static WarpRecord header(uint8_t op, uint32_t site, uint32_t block,
                           uint32_t warp, uint32_t mask) {
    WarpRecord r{};
    r.op = op;
    r.site = site;
    r.block = block;
    r.warp = uint16_t(warp);
    r.active_mask = mask;
    return r;
  }

private:
  LaunchLayout layout_;
  std::vector<WarpRecord> records_;
};

} // namespace gpurace::rt::testing

#endif
