//===- AcquireRelease.h - locks and flags that order accesses ---*- C++ -*-===//
//
// Finds, around each data access, the acquire before it (an atomic whose
// value the thread uses, then a fence) and the release after it (a fence,
// then an atomic or a volatile store), and turns them into the condition
// under which they order a pair of accesses of two threads:
//
//  - a lock: both accesses lie between an acquire and a release of the same
//    lock word, whichever thread enters first;
//  - a flag: the first access precedes a release of a word that the second
//    thread acquires before its access (producer and consumer);
//  - a hand-off: the flag reaches the second thread through other threads,
//    each acquiring the word the previous one released and then releasing
//    the next (happens-before is transitive). Each relay is "some thread"
//    of the launch, an existential over its symbols; each hop's fences and
//    atomics must reach the two threads of that hop.
//
// The words must be one address (a Z3 equality, so "different locks" is a
// satisfying assignment), and the fences and atomics must have a scope that
// includes both threads (ScoRD's scoped synchronization). When a pair still
// races, what was attempted names the defect: a missing fence, a scope too
// narrow, or different lock addresses.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_CHECK_ACQUIRERELEASE_H
#define GPURACE_ANALYZER_CHECK_ACQUIRERELEASE_H

#include "analyzer/model/KernelModel.h"
#include "analyzer/model/SymbolSpace.h"

#include <set>
#include <vector>

namespace gpurace::analyzer {

// One half of a synchronization: the atomic on the lock or flag word and
// the fence between it and the access (null when there is none).
struct SyncHalf {
  const MemoryAccess *atomic = nullptr;
  const Fence *fence = nullptr;
};

struct AccessGuards {
  std::vector<SyncHalf> acquires; // before the access, nearest first
  std::vector<SyncHalf> releases; // after the access, nearest first
};

// A thread's acquire of one word followed in program order by a release
// of another, with the fence between them: where a hand-off passes on.
struct Relay {
  SyncHalf acquire;
  SyncHalf release;
};

// What synchronization a pair attempts, and how far it gets.
struct OrderingAttempt {
  enum class Kind { None, Flag, Lock };
  Kind kind = Kind::None;
  // Some attempt has all of its fences.
  bool fenced = false;
  // Some fenced attempt also has scopes that include both threads.
  bool scoped = false;
};

class AcquireRelease {
public:
  AcquireRelease(const KernelModel &model, const SymbolSpace &symbols);

  // Thread 1 runs `a`, thread 2 runs `b`. `inter_block`: the threads are in
  // different blocks, so scopes must reach the device.
  z3::expr ordered(const MemoryAccess &a, const MemoryAccess &b, bool inter_block) const;
  OrderingAttempt attempt(const MemoryAccess &a, const MemoryAccess &b,
                          bool inter_block) const;

  // Words some access is locked or flagged with: atomics on them are
  // synchronization, reported through the accesses they guard.
  bool isSyncWord(const MemoryObject *object) const { return sync_words_.count(object) > 0; }

private:
  const AccessGuards &guards(const MemoryAccess &access) const;
  AccessGuards findGuards(const MemoryAccess &access) const;
  z3::expr holds(const SyncHalf &half, int thread) const;
  z3::expr sameWord(const SyncHalf &x, int tx, const SyncHalf &y, int ty) const;
  z3::expr flagOrdered(const MemoryAccess &first, int t1, const MemoryAccess &second,
                       int t2, bool inter_block) const;
  // `release`, run by thread `from`, reaches an acquire of `second` by
  // thread `to` through a relay thread `relay` (and perhaps more after it).
  z3::expr relayed(const SyncHalf &release, int from, const MemoryAccess &second, int to,
                   int relay) const;
  // The hop from `release` (thread tx) to `acquire` (thread ty) is fenced
  // and scoped for the two threads: always, within their block, or never.
  z3::expr hopReaches(const SyncHalf &release, int tx, const SyncHalf &acquire,
                      int ty) const;
  z3::expr sameBlock(int tx, int ty) const;
  z3::expr lockOrdered(const MemoryAccess &a, const MemoryAccess &b, bool inter_block) const;

  const KernelModel &model_;
  const SymbolSpace &symbols_;
  std::vector<AccessGuards> guards_; // by index in model_.accesses
  std::vector<Relay> relays_;
  std::set<const MemoryObject *> sync_words_;
};

} // namespace gpurace::analyzer

#endif
