//===- VectorClock.h - vector clocks compressed along the hierarchy -*- C++ -*-===//
//
// A vector clock over every thread of a launch, stored the way GPU threads
// synchronize: after a block barrier a thread knows every thread of its block
// up to one time, after a full __syncwarp every lane of its warp, after a grid
// sync every thread. So the clock keeps one entry per group (grid, block,
// warp, thread) instead of one per thread, and a thread's component is the
// largest entry of any group that contains it. This is lossless because the
// detector gives every member of a group the same clock right after the group
// synchronizes (see ThreadClocks), as BARRACUDA does with its block clock.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_DETECTOR_VECTORCLOCK_H
#define GPURACE_RUNTIME_DETECTOR_VECTORCLOCK_H

#include "runtime/detector/LaunchLayout.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace gpurace::rt {

using Clock = uint32_t;

class VectorClock {
public:
  // The time up to which this clock knows thread `t`: every event of `t`
  // stamped with a clock <= the result happens before.
  Clock get(const ThreadRef &t) const;

  void raiseGrid(Clock c);
  void raiseBlock(uint32_t block, Clock c, const LaunchLayout &layout);
  void raiseWarp(uint64_t warp, Clock c, const LaunchLayout &layout);
  void raiseThread(const ThreadRef &t, Clock c);

  // Pointwise maximum.
  void join(const VectorClock &other);

  bool empty() const {
    return grid_ == 0 && blocks_.empty() && warps_.empty() && threads_.empty();
  }
  // Heap memory held by the entries, for the memory figures.
  size_t heapBytes() const;

private:
  // Sorted by group id; at most one entry per group.
  using Entries = std::vector<std::pair<uint64_t, Clock>>;

  static Clock lookup(const Entries &entries, uint64_t key);
  static void raise(Entries &entries, uint64_t key, Clock c);
  static void merge(Entries &into, const Entries &from);
  // Drops entries in [first, last) that `c` already covers.
  static void prune(Entries &entries, uint64_t first, uint64_t last, Clock c);

  Clock grid_ = 0;
  Entries blocks_;
  Entries warps_;
  Entries threads_;
};

} // namespace gpurace::rt

#endif
