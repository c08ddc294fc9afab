//===- LaunchLayout.h - thread coordinates of one launch --------*- C++ -*-===//
//
// Converts between the detector's thread numbering (a global linear id) and
// the launch's hierarchy: block, warp within the block, lane, and the CUDA
// threadIdx/blockIdx a report shows.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_DETECTOR_LAUNCHLAYOUT_H
#define GPURACE_RUNTIME_DETECTOR_LAUNCHLAYOUT_H

#include "runtime/device/RecordLayout.h"

#include <cstdint>

namespace gpurace::rt {

struct Dims {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

// A thread as the detector names it, with the groups it belongs to.
struct ThreadRef {
  uint64_t tid;  // block * threadsPerBlock + linear thread index
  uint64_t warp; // block * warpsPerBlock + warp within the block
  uint32_t block;
};

class LaunchLayout {
public:
  LaunchLayout(Dims grid, Dims block)
      : grid_(grid), block_(block), threads_per_block_(block.count()),
        warps_per_block_((block.count() + kWarpSize - 1) / kWarpSize) {}

  const Dims &grid() const { return grid_; }
  const Dims &block() const { return block_; }
  uint64_t numBlocks() const { return grid_.count(); }
  uint64_t threadsPerBlock() const { return threads_per_block_; }
  uint64_t warpsPerBlock() const { return warps_per_block_; }
  uint64_t numWarps() const { return numBlocks() * warps_per_block_; }
  uint64_t numThreads() const { return numBlocks() * threads_per_block_; }

  ThreadRef thread(uint32_t block, uint32_t warp, uint32_t lane) const {
    uint64_t linear = uint64_t(warp) * kWarpSize + lane;
    return {block * threads_per_block_ + linear,
            block * warps_per_block_ + warp, block};
  }
  ThreadRef thread(uint64_t tid) const {
    uint32_t block = uint32_t(tid / threads_per_block_);
    uint64_t linear = tid % threads_per_block_;
    return {tid, block * warps_per_block_ + linear / kWarpSize, block};
  }
  uint32_t blockOfWarp(uint64_t warp) const {
    return uint32_t(warp / warps_per_block_);
  }

  // The lanes of a warp that exist: the last warp of a block whose size is
  // not a multiple of 32 is partial.
  uint32_t liveLanes(uint32_t warp_in_block) const {
    uint64_t first = uint64_t(warp_in_block) * kWarpSize;
    uint64_t n = threads_per_block_ - first;
    return n >= kWarpSize ? 0xffffffffu : ((1u << n) - 1);
  }

  Dims threadIdx(uint64_t tid) const { return unflatten(tid % threads_per_block_, block_); }
  Dims blockIdx(uint64_t tid) const { return unflatten(tid / threads_per_block_, grid_); }

private:
  static Dims unflatten(uint64_t linear, const Dims &d) {
    Dims r;
    r.x = uint32_t(linear % d.x);
    r.y = uint32_t((linear / d.x) % d.y);
    r.z = uint32_t(linear / (uint64_t(d.x) * d.y));
    return r;
  }

  Dims grid_, block_;
  uint64_t threads_per_block_;
  uint64_t warps_per_block_;
};

} // namespace gpurace::rt

#endif
