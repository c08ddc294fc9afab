#include "runtime/detector/Detector.h"

#include <algorithm>

namespace gpurace::rt {

namespace {

bool validSize(uint8_t size) {
  return size == 1 || size == 2 || size == 4 || size == 8 || size == 16;
}

// Two atomics of threads in different blocks are atomic with respect to each
// other only if both are at least device scope (ScoRD's scoped atomics).
bool atomicsCompatible(const ShadowAccess &a, const ShadowAccess &b,
                       bool same_block) {
  return same_block || (a.scope >= kScopeDevice && b.scope >= kScopeDevice);
}

uint8_t effectiveScope(uint8_t scope) {
  // An unscoped atomic or fence means the default: device.
  return scope == kScopeNone ? uint8_t(kScopeDevice) : scope;
}

// The scope of a fence+atomic pair is the narrower of the two.
SyncScope pairScope(uint8_t fence, uint8_t atomic) {
  fence = effectiveScope(fence);
  atomic = effectiveScope(atomic);
  if (fence < atomic)
    return {fence, v1::SYNC_DEFECT_MISSING_DEVICE_FENCE};
  return {atomic, v1::SYNC_DEFECT_LOCK_SCOPE_TOO_NARROW};
}

} // namespace

Detector::Detector(const LaunchLayout &layout)
    : layout_(layout), clocks_(layout) {}

bool Detector::wellFormed(const WarpRecord &r) const {
  if (r.block >= layout_.numBlocks() || r.warp >= layout_.warpsPerBlock())
    return false;
  if ((r.active_mask & layout_.liveLanes(r.warp)) == 0)
    return false;
  switch (r.op) {
  case kOpRead:
  case kOpWrite:
  case kOpAtomic:
    return validSize(r.size);
  case kOpBarrier:
  case kOpSyncWarp:
  case kOpFence:
  case kOpGridSync:
    return true;
  default:
    return false;
  }
}

void Detector::process(const WarpRecord &r) {
  if (!wellFormed(r)) {
    ++malformed_;
    return;
  }
  ++records_;
  // Lanes waiting at a barrier that issue something else: the lanes that
  // never arrived have exited, and the barrier completed without them.
  auto wait = barrier_waits_.find(layout_.thread(r.block, r.warp, 0).warp);
  if (wait != barrier_waits_.end() && (wait->second.lanes & r.active_mask))
    completeBarrier(r);
  clocks_.catchUp(r.block, r.warp);
  switch (r.op) {
  case kOpRead:
  case kOpWrite:
    onAccess(r);
    break;
  case kOpAtomic:
    onAccess(r);
    onAtomicSync(r);
    break;
  case kOpBarrier:
    onBarrier(r);
    break;
  case kOpSyncWarp:
    clocks_.syncWarp(r.block, r.warp, r.active_mask, r.aux);
    break;
  case kOpFence:
    onFence(r);
    break;
  case kOpGridSync:
    onGridSync(r);
    break;
  }
}

std::vector<Detector::WordAccess>
Detector::splitIntoWords(const WarpRecord &r) const {
  std::vector<WordAccess> words;
  bool shared = r.flags & kFlagShared;
  uint32_t live = r.active_mask & layout_.liveLanes(r.warp);
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    if (!(live & (1u << lane)))
      continue;
    ThreadRef t = layout_.thread(r.block, r.warp, lane);
    uint64_t first = r.address[lane], last = first + r.size - 1;
    for (uint64_t word = first >> 3; word <= last >> 3; ++word) {
      uint64_t lo = std::max(first, word << 3), hi = std::min(last, (word << 3) + 7);
      uint8_t bytes = uint8_t(((1u << (hi - lo + 1)) - 1) << (lo & 7));
      uint64_t key = shared ? ShadowMemory::sharedKey(r.block, word << 3)
                            : ShadowMemory::globalKey(word << 3);
      ShadowAccess access{t.tid, clocks_.now(t, lane), r.site, bytes, r.op,
                          r.scope};
      // The value is the element's: comparable when the element lies
      // within this one word.
      if ((r.flags & kFlagValues) && first >> 3 == last >> 3) {
        access.has_value = true;
        access.value = r.value[lane];
      }
      words.push_back({key, word << 3, access, lane});
    }
  }
  return words;
}

void Detector::onAccess(const WarpRecord &r) {
  std::vector<WordAccess> words = splitIntoWords(r);
  bool shared = r.flags & kFlagShared;
  if (r.op == kOpWrite)
    checkSameInstruction(r, words);
  // Lanes of one record run concurrently: check them all against the state
  // before the record, then update. The shadow keeps words in place, so
  // each lane's word is looked up once.
  for (WordAccess &w : words) {
    ThreadRef t = layout_.thread(w.access.tid);
    w.shadow = &shadow_.word(w.key);
    checkAgainst(w.shadow->writes, w, t, shared);
    if (r.op != kOpRead)
      checkAgainst(w.shadow->reads, w, t, shared);
  }
  for (const WordAccess &w : words)
    update(*w.shadow, w, layout_.thread(w.access.tid));
}

// Lanes of one store instruction that write the same bytes: the outcome is
// undefined unless every one of them stores the same value.
void Detector::checkSameInstruction(const WarpRecord &r,
                                    const std::vector<WordAccess> &words) {
  std::vector<const WordAccess *> sorted;
  for (const WordAccess &w : words)
    sorted.push_back(&w);
  std::sort(sorted.begin(), sorted.end(),
            [](const WordAccess *a, const WordAccess *b) { return a->key < b->key; });
  bool values = r.flags & kFlagValues;
  for (size_t i = 0; i < sorted.size(); ++i) {
    for (size_t j = i + 1; j < sorted.size() && sorted[j]->key == sorted[i]->key; ++j) {
      const WordAccess &a = *sorted[i], &b = *sorted[j];
      uint8_t overlap = a.access.bytes & b.access.bytes;
      if (!overlap || (values && r.value[a.lane] == r.value[b.lane]))
        continue;
      Race race;
      race.first_site = race.second_site = r.site;
      race.race_class = v1::RACE_CLASS_INTRA_WARP;
      race.defect = v1::SYNC_DEFECT_MISSING_SYNCWARP;
      race.first_tid = a.access.tid;
      race.second_tid = b.access.tid;
      race.address = a.word_address + __builtin_ctz(overlap);
      race.shared = r.flags & kFlagShared;
      races_.add(race);
    }
  }
}

void Detector::checkAgainst(const AccessList &prior,
                            const WordAccess &current, const ThreadRef &t,
                            bool shared) {
  for (const ShadowAccess &p : prior) {
    uint8_t overlap = p.bytes & current.access.bytes;
    if (!overlap || p.tid == t.tid || sameValueWrites(p, current.access))
      continue;
    ThreadRef pt = layout_.thread(p.tid);
    if (p.op == kOpAtomic && current.access.op == kOpAtomic &&
        atomicsCompatible(p, current.access, pt.block == t.block))
      continue;
    if (clocks_.ordered(pt, p.clock, t, current.lane))
      continue;
    reportPair(p, current.access, t,
               current.word_address + __builtin_ctz(overlap), shared);
  }
}

void Detector::reportPair(const ShadowAccess &prior,
                          const ShadowAccess &current, const ThreadRef &t,
                          uint64_t address, bool shared) {
  ThreadRef pt = layout_.thread(prior.tid);
  Race race;
  race.first_site = prior.site;
  race.second_site = current.site;
  race.first_tid = prior.tid;
  race.second_tid = current.tid;
  race.address = address;
  race.shared = shared;
  if (pt.warp == t.warp) {
    race.race_class = v1::RACE_CLASS_INTRA_WARP;
    race.defect = v1::SYNC_DEFECT_MISSING_SYNCWARP;
  } else if (pt.block == t.block) {
    race.race_class = v1::RACE_CLASS_INTRA_BLOCK;
    race.defect = v1::SYNC_DEFECT_MISSING_BARRIER;
  } else {
    race.race_class = v1::RACE_CLASS_INTER_BLOCK;
    race.defect = v1::SYNC_DEFECT_MISSING_GRID_SYNC;
  }
  bool prior_atomic = prior.op == kOpAtomic;
  bool current_atomic = current.op == kOpAtomic;
  v1::SyncDefect scoped_defect;
  if (prior_atomic && current_atomic) {
    race.race_class = v1::RACE_CLASS_SCOPED;
    race.defect = v1::SYNC_DEFECT_INSUFFICIENT_ATOMIC_SCOPE;
  } else if (prior_atomic || current_atomic) {
    race.defect = v1::SYNC_DEFECT_ATOMIC_VS_PLAIN;
  } else if (pt.block != t.block && missedScopedSync(pt, t, scoped_defect)) {
    race.race_class = v1::RACE_CLASS_SCOPED;
    race.defect = scoped_defect;
  }
  races_.add(race);
}

bool Detector::missedScopedSync(const ThreadRef &a, const ThreadRef &b,
                                v1::SyncDefect &defect) const {
  auto missed = [&](const ThreadRef &acquirer, const ThreadRef &releaser) {
    auto it = unseen_.find(acquirer.tid);
    if (it == unseen_.end())
      return false;
    for (const Unseen &u : it->second)
      if (u.block == releaser.block) {
        defect = u.defect;
        return true;
      }
    return false;
  };
  return missed(b, a) || missed(a, b);
}

// FastTrack's updates: a write supersedes the accesses it covers (ordered
// ones, and racing ones already reported, but not a concurrent store of
// the same value, which was not); an atomic supersedes only what is
// ordered before it or plain, since concurrent atomics remain legitimate; a
// read supersedes earlier ordered reads.
void Detector::update(ShadowWord &word, const WordAccess &current,
                      const ThreadRef &t) {
  const ShadowAccess &a = current.access;
  auto superseded = [&](const ShadowAccess &p) {
    if ((p.bytes & ~a.bytes) != 0)
      return false;
    if (p.tid == t.tid)
      return true;
    // A concurrent store of the same value was not reported, so it stays:
    // a later store of another value may race with it.
    if (a.op == kOpWrite)
      return !sameValueWrites(p, a) ||
             clocks_.ordered(layout_.thread(p.tid), p.clock, t, current.lane);
    if (a.op == kOpAtomic && p.op != kOpAtomic && p.op != kOpRead)
      return true;
    return clocks_.ordered(layout_.thread(p.tid), p.clock, t, current.lane);
  };
  if (a.op == kOpRead) {
    word.reads.removeIf(superseded);
    shadow_.remember(word.reads, a);
    return;
  }
  word.writes.removeIf(superseded);
  word.reads.removeIf(superseded);
  shadow_.remember(word.writes, a);
}

// A barrier is one arrival per warp once every live lane has reached it.
// Lanes of one warp reaching different barriers (or the same lane arriving
// twice) is barrier divergence.
void Detector::onBarrier(const WarpRecord &r) {
  uint64_t warp = layout_.thread(r.block, r.warp, 0).warp;
  BarrierWait &wait = barrier_waits_[warp];
  if (wait.lanes && wait.site != r.site) {
    Race race;
    race.first_site = wait.site;
    race.second_site = r.site;
    race.race_class = v1::RACE_CLASS_BARRIER_DIVERGENCE;
    race.defect = v1::SYNC_DEFECT_DIVERGENT_BARRIER;
    race.first_tid = layout_.thread(r.block, r.warp, __builtin_ctz(wait.lanes)).tid;
    race.second_tid = layout_.thread(r.block, r.warp, __builtin_ctz(r.active_mask)).tid;
    races_.add(race);
  }
  wait.lanes |= r.active_mask;
  wait.site = r.site;
  wait.op = kOpBarrier;
  uint32_t live = layout_.liveLanes(r.warp);
  if ((wait.lanes & live) == live)
    completeBarrier(r);
}

// A grid sync is one arrival per warp too, once every live lane has reached
// it (or the lanes that did issue something else: the others exited).
void Detector::onGridSync(const WarpRecord &r) {
  BarrierWait &wait = barrier_waits_[layout_.thread(r.block, r.warp, 0).warp];
  wait.lanes |= r.active_mask;
  wait.site = r.site;
  wait.op = kOpGridSync;
  uint32_t live = layout_.liveLanes(r.warp);
  if ((wait.lanes & live) == live)
    completeBarrier(r);
}

void Detector::completeBarrier(const WarpRecord &r) {
  auto wait = barrier_waits_.find(layout_.thread(r.block, r.warp, 0).warp);
  uint8_t op = wait->second.op;
  barrier_waits_.erase(wait);
  if (op == kOpGridSync)
    clocks_.arriveGridSync(r.block, r.warp);
  else
    clocks_.arriveBarrier(r.block, r.warp);
}

uint64_t Detector::syncLocation(const WarpRecord &r, uint32_t lane) const {
  if (r.flags & kFlagShared)
    return (1ull << 63) | (uint64_t(r.block) << 24) | r.address[lane];
  return r.address[lane];
}

// An atomic after a fence (in the same thread) releases; an atomic remembers
// its location so that a following fence acquires from it.
void Detector::onAtomicSync(const WarpRecord &r) {
  uint32_t live = r.active_mask & layout_.liveLanes(r.warp);
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    if (!(live & (1u << lane)))
      continue;
    ThreadRef t = layout_.thread(r.block, r.warp, lane);
    uint64_t location = syncLocation(r, lane);
    LaneSync &s = lane_sync_[t.tid];
    if (s.fenced) {
      sync_.release(location, pairScope(s.fence_scope, r.scope), t.block,
                    clocks_.snapshot(t, lane));
      clocks_.advance(t, lane);
      s.fenced = false;
    }
    s.after_atomic = true;
    s.atomic_scope = r.scope;
    s.atomic_location = location;
  }
}

void Detector::onFence(const WarpRecord &r) {
  uint32_t live = r.active_mask & layout_.liveLanes(r.warp);
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    if (!(live & (1u << lane)))
      continue;
    ThreadRef t = layout_.thread(r.block, r.warp, lane);
    LaneSync &s = lane_sync_[t.tid];
    if (s.after_atomic) {
      SyncLocations::Acquired got = sync_.acquire(
          s.atomic_location, pairScope(r.scope, s.atomic_scope), t.block);
      clocks_.acquire(t, 1u << lane, got.clock);
      for (const SyncLocations::OutOfScope &o : got.out_of_scope)
        rememberUnseen(t, o.block, o.defect);
      s.after_atomic = false;
    }
    s.fenced = true;
    s.fence_scope = r.scope;
  }
}

void Detector::rememberUnseen(const ThreadRef &t, uint32_t block,
                              v1::SyncDefect defect) {
  std::vector<Unseen> &unseen = unseen_[t.tid];
  for (const Unseen &u : unseen)
    if (u.block == block)
      return;
  unseen.push_back({block, defect});
}

DetectorStats Detector::stats() const {
  DetectorStats s;
  s.records = records_;
  s.malformed_records = malformed_;
  s.shadow_evictions = shadow_.evicted();
  s.clock_bytes = clocks_.bytes();
  s.shadow_words = shadow_.words();
  return s;
}

} // namespace gpurace::rt
