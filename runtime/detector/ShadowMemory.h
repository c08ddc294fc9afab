//===- ShadowMemory.h - the last accesses to each memory word ---*- C++ -*-===//
//
// Per 8-byte word, the accesses a later access must be checked against
// (FastTrack's W_x and R_x): writes and atomics, and reads, each as an epoch
// (thread, clock) with the bytes of the word it touched. Entries an access
// supersedes are dropped, so a word usually holds one write and one read.
// Concurrent reads (or concurrent atomics) keep one entry each, up to a cap;
// entries pushed out by the cap are counted so the report can say coverage
// was reduced.
//
// Shared-memory words are keyed by block as well: offset X in two blocks is
// two locations.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_DETECTOR_SHADOWMEMORY_H
#define GPURACE_RUNTIME_DETECTOR_SHADOWMEMORY_H

#include "runtime/detector/VectorClock.h"
#include "runtime/device/RecordLayout.h"

#include <unordered_map>
#include <vector>

namespace gpurace::rt {

struct ShadowAccess {
  uint64_t tid;
  Clock clock;
  uint32_t site;
  uint8_t bytes; // bit i: byte i of the word
  uint8_t op;    // kOpRead, kOpWrite or kOpAtomic
  uint8_t scope; // of an atomic
  // A plain store that recorded the value it wrote, within this word.
  bool has_value = false;
  uint64_t value = 0;
};

// Two plain stores of the same value to the same bytes: whichever lands
// last, the bytes hold that value, so the pair is benign.
inline bool sameValueWrites(const ShadowAccess &a, const ShadowAccess &b) {
  return a.op == kOpWrite && b.op == kOpWrite && a.has_value && b.has_value &&
         a.bytes == b.bytes && a.value == b.value;
}

struct ShadowWord {
  std::vector<ShadowAccess> writes; // writes and atomics
  std::vector<ShadowAccess> reads;
};

class ShadowMemory {
public:
  // Entries kept per list of a word before the oldest is pushed out.
  static constexpr size_t kMaxEntries = 16;

  static uint64_t globalKey(uint64_t address) { return address >> 3; }
  static uint64_t sharedKey(uint32_t block, uint64_t offset) {
    return (1ull << 63) | (uint64_t(block) << 24) | (offset >> 3);
  }

  ShadowWord &word(uint64_t key) { return words_[key]; }

  // Appends `access`, pushing out the oldest entry when the list is full.
  void remember(std::vector<ShadowAccess> &list, const ShadowAccess &access);

  uint64_t evicted() const { return evicted_; }
  size_t words() const { return words_.size(); }

private:
  std::unordered_map<uint64_t, ShadowWord> words_;
  uint64_t evicted_ = 0;
};

} // namespace gpurace::rt

#endif
