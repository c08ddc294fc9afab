//===- SyncLocations.h - clocks released to synchronization locations -*- C++ -*-===//
//
// BARRACUDA's S_x with ScoRD's scopes: for each location used to release
// (a fence followed by an atomic write, e.g. an unlock or a flag store), the
// clocks released to it, per releasing block and scope. Release and acquire
// synchronize only when each one's scope includes the other thread: a
// block-scope release or acquire orders nothing across blocks. The releases
// an acquire could not see for that reason are returned, so a race they
// would have prevented is reported as a scoped race.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_DETECTOR_SYNCLOCATIONS_H
#define GPURACE_RUNTIME_DETECTOR_SYNCLOCATIONS_H

#include "gpurace/v1/analysis.pb.h"
#include "runtime/detector/VectorClock.h"

#include <unordered_map>
#include <vector>

namespace gpurace::rt {

// The scope of a fence+atomic pair and which of the two narrowed it.
struct SyncScope {
  uint8_t scope;
  // What to fix when `scope` is too narrow: the fence or the atomic.
  v1::SyncDefect if_too_narrow;
};

class SyncLocations {
public:
  void release(uint64_t location, SyncScope scope, uint32_t block,
               const VectorClock &clock);

  struct OutOfScope {
    uint32_t block;
    v1::SyncDefect defect;
  };
  struct Acquired {
    VectorClock clock;
    std::vector<OutOfScope> out_of_scope;
  };
  Acquired acquire(uint64_t location, SyncScope scope, uint32_t block) const;

private:
  struct Released {
    VectorClock clock;
    v1::SyncDefect if_too_narrow = v1::SYNC_DEFECT_UNSPECIFIED;
  };
  struct Location {
    std::unordered_map<uint32_t, Released> device_scope; // by releasing block
    std::unordered_map<uint32_t, Released> block_scope;  // by releasing block
  };
  std::unordered_map<uint64_t, Location> locations_;
};

} // namespace gpurace::rt

#endif
