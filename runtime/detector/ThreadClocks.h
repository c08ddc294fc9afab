//===- ThreadClocks.h - every thread's vector clock in one launch -*- C++ -*-===//
//
// The per-thread vector clocks (BARRACUDA's C_t), kept per warp: each lane's
// own clock, the knowledge every lane of the warp shares, and per-lane extra
// knowledge that exists only after the lanes' histories diverge (a partial
// __syncwarp, an acquire by some lanes). Barriers, full-warp syncs and grid
// syncs give every member the same clock afterwards, which is what lets
// VectorClock store one entry per group.
//
// Own clocks advance only at release points (barriers, syncs, releases):
// events between two of them share a clock, which is all the happens-before
// check needs.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_DETECTOR_THREADCLOCKS_H
#define GPURACE_RUNTIME_DETECTOR_THREADCLOCKS_H

#include "runtime/detector/VectorClock.h"

#include <array>
#include <memory>
#include <vector>

namespace gpurace::rt {

class ThreadClocks {
public:
  explicit ThreadClocks(const LaunchLayout &layout);

  // Applies the barriers and grid syncs the warp has passed since its last
  // record. Call before handling each record of the warp.
  void catchUp(uint32_t block, uint32_t warp);

  // Whether an event of `prior` stamped `c` happens before the current
  // point of lane `lane` of thread `t`.
  bool ordered(const ThreadRef &prior, Clock c, const ThreadRef &t,
               uint32_t lane) const;
  Clock now(const ThreadRef &t, uint32_t lane) const {
    return warpState(t).own[lane];
  }

  // The whole vector clock of one thread, for a release.
  VectorClock snapshot(const ThreadRef &t, uint32_t lane) const;
  // Joins `released` into the lanes in `lanes` of the warp of `t`.
  void acquire(const ThreadRef &t, uint32_t lanes, const VectorClock &released);
  // Starts a new epoch for one thread after it released its clock.
  void advance(const ThreadRef &t, uint32_t lane);

  void arriveBarrier(uint32_t block, uint32_t warp);
  void arriveGridSync(uint32_t block, uint32_t warp);
  // Lanes `arrived` of the warp execute __syncwarp(mask); once every lane of
  // `mask` has arrived they synchronize with each other.
  void syncWarp(uint32_t block, uint32_t warp, uint32_t arrived,
                uint32_t mask);

  // Memory held by all clocks, for the memory figures.
  size_t bytes() const;

private:
  struct WarpState {
    std::array<Clock, kWarpSize> own;
    VectorClock shared;
    // Per-lane knowledge beyond `shared`; null while the lanes agree.
    std::unique_ptr<std::array<VectorClock, kWarpSize>> lanes;
    uint32_t barriers_arrived = 0;
    uint32_t barriers_applied = 0;
    uint32_t grid_syncs_arrived = 0;
    uint32_t grid_syncs_applied = 0;
    // Lanes waiting in a __syncwarp whose mask is not complete yet.
    uint32_t syncwarp_waiting = 0;
  };

  // The synchronization of one group (a block barrier or a grid sync)
  // collecting its arrivals until every member has caught up with it.
  struct Generation {
    uint32_t number = 0;
    Clock max_clock = 0;
    VectorClock joined;
    std::vector<uint64_t> arrived_warps;
    uint32_t pending = 0;
  };

  WarpState &warpState(uint32_t block, uint32_t warp) {
    return warps_[block * layout_.warpsPerBlock() + warp];
  }
  const WarpState &warpState(const ThreadRef &t) const {
    return warps_[t.warp];
  }
  WarpState &warpState(const ThreadRef &t) { return warps_[t.warp]; }
  VectorClock &laneKnowledge(WarpState &w, uint32_t lane);

  void arrive(std::vector<Generation> &gens, uint32_t number, uint64_t warp_id,
              WarpState &w);
  void apply(std::vector<Generation> &gens, uint32_t number, WarpState &w,
             uint64_t group_size, bool whole_grid, uint32_t block);

  LaunchLayout layout_;
  std::vector<WarpState> warps_;
  std::vector<std::vector<Generation>> block_barriers_;
  std::vector<Generation> grid_syncs_;
};

} // namespace gpurace::rt

#endif
