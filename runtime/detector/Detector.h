//===- Detector.h - happens-before race detection over one launch -*- C++ -*-===//
//
// Consumes the warp records of one launch, in buffer order, and reports the
// races they exhibit. The rules are BARRACUDA's, with ScoRD's scopes:
//  - program order within a thread;
//  - a block barrier orders everything before it in the block with
//    everything after it (a barrier some lanes skip is a divergence);
//  - __syncwarp(mask) orders the lanes of the mask; lanes of a warp are not
//    otherwise ordered (independent thread scheduling);
//  - a grid sync orders the whole launch;
//  - a fence followed by an atomic write releases to the atomic's location;
//    an atomic followed by a fence acquires from it; the narrower of the two
//    scopes decides who may acquire;
//  - atomics never synchronize by themselves, never race with atomics of
//    sufficient scope, and race with unordered plain accesses;
//  - two plain stores to the same bytes race unless both store the same
//    value (the same-value filter), whether lanes of one store or any two
//    unordered threads: the bytes hold that value whichever lands last, as
//    the static analysis's benign same-value writes.
//
// Records with fields out of range for the launch are skipped and counted.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_DETECTOR_DETECTOR_H
#define GPURACE_RUNTIME_DETECTOR_DETECTOR_H

#include "runtime/detector/RaceSet.h"
#include "runtime/detector/ShadowMemory.h"
#include "runtime/detector/SyncLocations.h"
#include "runtime/detector/ThreadClocks.h"

#include <unordered_map>

namespace gpurace::rt {

struct DetectorStats {
  uint64_t records = 0;
  uint64_t malformed_records = 0;
  uint64_t shadow_evictions = 0;
  size_t clock_bytes = 0;
  size_t shadow_words = 0;
};

class Detector {
public:
  explicit Detector(const LaunchLayout &layout);

  void process(const WarpRecord &record);

  const std::vector<Race> &races() const { return races_.races(); }
  DetectorStats stats() const;
  const LaunchLayout &layout() const { return layout_; }

private:
  // Release/acquire bookkeeping of one thread between a fence and an atomic.
  struct LaneSync {
    bool fenced = false;
    uint8_t fence_scope = 0;
    bool after_atomic = false;
    uint8_t atomic_scope = 0;
    uint64_t atomic_location = 0;
  };
  // A block whose release this thread could not acquire (scope too narrow).
  struct Unseen {
    uint32_t block;
    v1::SyncDefect defect;
  };
  // One lane's access to one word.
  struct WordAccess {
    uint64_t key;
    uint64_t word_address;
    ShadowAccess access;
    uint32_t lane;
    // The word's shadow, found once for the check and the update.
    ShadowWord *shadow = nullptr;
  };

  bool wellFormed(const WarpRecord &r) const;
  void onAccess(const WarpRecord &r);
  void onBarrier(const WarpRecord &r);
  void onGridSync(const WarpRecord &r);
  void onFence(const WarpRecord &r);
  void onAtomicSync(const WarpRecord &r);

  std::vector<WordAccess> splitIntoWords(const WarpRecord &r) const;
  void checkSameInstruction(const WarpRecord &r,
                            const std::vector<WordAccess> &words);
  void checkAgainst(const AccessList &prior, const WordAccess &current,
                    const ThreadRef &t, bool shared);
  void update(ShadowWord &word, const WordAccess &current, const ThreadRef &t);
  void reportPair(const ShadowAccess &prior, const ShadowAccess &current,
                  const ThreadRef &t, uint64_t address, bool shared);
  bool missedScopedSync(const ThreadRef &a, const ThreadRef &b,
                        v1::SyncDefect &defect) const;
  void rememberUnseen(const ThreadRef &t, uint32_t block,
                      v1::SyncDefect defect);
  uint64_t syncLocation(const WarpRecord &r, uint32_t lane) const;

  LaunchLayout layout_;
  ThreadClocks clocks_;
  ShadowMemory shadow_;
  SyncLocations sync_;
  RaceSet races_;
  std::unordered_map<uint64_t, LaneSync> lane_sync_;
  std::unordered_map<uint64_t, std::vector<Unseen>> unseen_;
  // Lanes of a warp that reached a barrier (or grid sync) whose other
  // lanes have not yet (lanes may arrive in separate records), and the
  // barrier's site.
  struct BarrierWait {
    uint32_t lanes = 0;
    uint32_t site = 0;
    uint8_t op = kOpBarrier;
  };
  std::unordered_map<uint64_t, BarrierWait> barrier_waits_;
  void completeBarrier(const WarpRecord &r);
  uint64_t records_ = 0;
  uint64_t malformed_ = 0;
};

} // namespace gpurace::rt

#endif
