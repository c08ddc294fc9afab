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
// A launch may touch millions of words, each looked up by every access to
// it. Consecutive words share a chunk, so a warp's coalesced access finds
// one or two chunks and the map holds an entry per chunk; and a word keeps
// the first two entries of each list inline, so most words allocate
// nothing of their own.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_DETECTOR_SHADOWMEMORY_H
#define GPURACE_RUNTIME_DETECTOR_SHADOWMEMORY_H

#include "runtime/detector/VectorClock.h"
#include "runtime/device/RecordLayout.h"

#include <algorithm>
#include <cstdint>
#include <memory>
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

// The entries of one list of a word: up to two inline (a word usually holds
// one access, or two that wrote its two halves), more on the heap.
class AccessList {
public:
  const ShadowAccess *begin() const { return onHeap() ? many_.data() : few_; }
  const ShadowAccess *end() const { return begin() + count_; }
  size_t size() const { return count_; }

  void push_back(const ShadowAccess &access);
  void pop_front();
  // Removes the entries `drop` accepts; the others keep their order.
  template <class Predicate> void removeIf(Predicate drop) {
    if (!onHeap()) {
      count_ = uint32_t(std::remove_if(few_, few_ + count_, drop) - few_);
      return;
    }
    many_.erase(std::remove_if(many_.begin(), many_.end(), drop), many_.end());
    count_ = uint32_t(many_.size());
    if (!onHeap())
      moveInline();
  }

private:
  static constexpr uint32_t kInline = 2;
  bool onHeap() const { return count_ > kInline; }
  void moveInline();

  // count_ <= kInline: the entries are few_; otherwise they are many_.
  uint32_t count_ = 0;
  ShadowAccess few_[kInline]{};
  std::vector<ShadowAccess> many_;
};

struct ShadowWord {
  AccessList writes; // writes and atomics
  AccessList reads;
};

class ShadowMemory {
public:
  // Entries kept per list of a word before the oldest is pushed out.
  static constexpr size_t kMaxEntries = 16;

  static uint64_t globalKey(uint64_t address) { return address >> 3; }
  static uint64_t sharedKey(uint32_t block, uint64_t offset) {
    return (1ull << 63) | (uint64_t(block) << 24) | (offset >> 3);
  }

  // The word's entry, empty at first use. References stay valid while
  // other words are added.
  ShadowWord &word(uint64_t key);

  // Appends `access`, pushing out the oldest entry when the list is full.
  void remember(AccessList &list, const ShadowAccess &access);

  uint64_t evicted() const { return evicted_; }
  size_t words() const { return words_; }

private:
  static constexpr uint64_t kChunkWords = 8;
  struct Chunk {
    ShadowWord words[kChunkWords];
    uint8_t used = 0; // bit i: words[i] was asked for
  };

  Chunk *newChunk();

  // Chunks come from slabs, so that a launch's shadow is a few large
  // allocations rather than one per chunk.
  static constexpr size_t kSlabChunks = 64;
  std::vector<std::unique_ptr<Chunk[]>> slabs_;
  size_t slab_used_ = kSlabChunks;
  std::unordered_map<uint64_t, Chunk *> chunks_;
  // The chunk of the last lookup: neighbouring lanes usually share it.
  uint64_t last_id_ = UINT64_MAX;
  Chunk *last_ = nullptr;
  size_t words_ = 0;
  uint64_t evicted_ = 0;
};

} // namespace gpurace::rt

#endif
