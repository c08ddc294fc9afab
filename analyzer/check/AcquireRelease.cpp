#include "analyzer/check/AcquireRelease.h"

#include <algorithm>
#include <array>

namespace gpurace::analyzer {

namespace {

// Halves looked at on each side of an access: the nearest ones are the
// ones that guard it; farther ones only cost solver time.
constexpr size_t kMaxHalves = 3;

int rank(v1::MemoryScope scope) {
  switch (scope) {
  case v1::MEMORY_SCOPE_WARP: return 1;
  case v1::MEMORY_SCOPE_BLOCK: return 2;
  case v1::MEMORY_SCOPE_DEVICE: return 3;
  case v1::MEMORY_SCOPE_SYSTEM: return 4;
  default: return 0;
  }
}

bool isAtomic(const MemoryAccess &a) { return a.site.kind() == v1::ACCESS_KIND_ATOMIC; }

// Plain atomics are device-wide; volatile accesses reach the whole system.
int atomicRank(const MemoryAccess &a) {
  if (a.strong)
    return rank(v1::MEMORY_SCOPE_SYSTEM);
  int r = rank(a.site.scope());
  return r == 0 ? rank(v1::MEMORY_SCOPE_DEVICE) : r;
}

// The scope a fenced half reaches: the narrower of its fence and atomic.
bool reaches(const SyncHalf &half, bool inter_block) {
  if (!half.fence)
    return false;
  int reached = std::min(rank(half.fence->site.scope()), atomicRank(*half.atomic));
  return reached >= (inter_block ? rank(v1::MEMORY_SCOPE_DEVICE)
                                 : rank(v1::MEMORY_SCOPE_BLOCK));
}

bool acquiresWith(const MemoryAccess &a) {
  if (isAtomic(a))
    return a.value_used && a.site.atomic_op() != v1::ATOMIC_OP_STORE;
  return a.strong && a.site.kind() == v1::ACCESS_KIND_READ;
}

bool releasesWith(const MemoryAccess &a) {
  if (isAtomic(a))
    return a.site.atomic_op() != v1::ATOMIC_OP_LOAD;
  return a.strong && a.site.kind() == v1::ACCESS_KIND_WRITE;
}

// The widest fence strictly between two positions in program order.
const Fence *widestFenceBetween(const KernelModel &model, unsigned after,
                                unsigned before) {
  const Fence *widest = nullptr;
  for (const Fence &fence : model.fences)
    if (fence.order > after && fence.order < before &&
        (!widest || rank(fence.site.scope()) > rank(widest->site.scope())))
      widest = &fence;
  return widest;
}

bool sameObject(const SyncHalf &x, const SyncHalf &y) {
  return x.atomic->object == y.atomic->object;
}

bool opIsOneOf(const MemoryAccess &a, std::initializer_list<v1::AtomicOp> ops) {
  return std::find(ops.begin(), ops.end(), a.site.atomic_op()) != ops.end();
}

// A critical section: taken with a compare-and-swap or test-and-set, given
// back with an exchange or a store. Counters (atomicAdd tickets) are not
// locks even when they are read before and written after an access.
bool locks(const SyncHalf &acquire, const SyncHalf &release) {
  const MemoryAccess &take = *acquire.atomic, &give = *release.atomic;
  bool takes = isAtomic(take) && opIsOneOf(take, {v1::ATOMIC_OP_CAS, v1::ATOMIC_OP_EXCH});
  bool gives = give.strong || opIsOneOf(give, {v1::ATOMIC_OP_EXCH, v1::ATOMIC_OP_STORE,
                                               v1::ATOMIC_OP_CAS});
  return takes && gives && sameObject(acquire, release);
}

// A release of the word the access acquired: the access is in a critical
// section, and the acquire does not wait for another thread's release.
bool isLockAcquire(const AccessGuards &guards, const SyncHalf &acquire) {
  return std::any_of(guards.releases.begin(), guards.releases.end(),
                     [&](const SyncHalf &r) { return locks(acquire, r); });
}

// Calls `visit(halves)` with the acquire and release of each lock that the
// first access and the second access hold on one word object.
template <class Visit>
void forEachLock(const AccessGuards &first, const AccessGuards &second, Visit visit) {
  for (const SyncHalf &acquire_a : first.acquires)
    for (const SyncHalf &release_a : first.releases)
      for (const SyncHalf &acquire_b : second.acquires)
        for (const SyncHalf &release_b : second.releases)
          if (locks(acquire_a, release_a) && locks(acquire_b, release_b) &&
              sameObject(acquire_a, acquire_b))
            visit(std::array<SyncHalf, 4>{acquire_a, release_a, acquire_b, release_b});
}

// Calls `visit(release, acquire)` for each flag the producer's access
// releases and the consumer's access acquires.
template <class Visit>
void forEachFlag(const AccessGuards &producer, const AccessGuards &consumer, Visit visit) {
  for (const SyncHalf &release : producer.releases)
    for (const SyncHalf &acquire : consumer.acquires)
      if (sameObject(release, acquire) && !isLockAcquire(consumer, acquire))
        visit(release, acquire);
}

} // namespace

AcquireRelease::AcquireRelease(const KernelModel &model, const SymbolSpace &symbols)
    : model_(model), symbols_(symbols) {
  for (const MemoryAccess &access : model.accesses)
    guards_.push_back(findGuards(access));
  std::set<const MemoryObject *> fenced_releases, fenced_acquires;
  for (const AccessGuards &g : guards_) {
    for (const SyncHalf &acquire : g.acquires) {
      if (isLockAcquire(g, acquire))
        sync_words_.insert(acquire.atomic->object);
      if (acquire.fence)
        fenced_acquires.insert(acquire.atomic->object);
    }
    for (const SyncHalf &release : g.releases)
      if (release.fence)
        fenced_releases.insert(release.atomic->object);
  }
  for (const MemoryObject *word : fenced_releases)
    if (fenced_acquires.count(word))
      sync_words_.insert(word);
  for (const MemoryAccess &access : model.accesses) {
    if (!acquiresWith(access))
      continue;
    for (const SyncHalf &release : findGuards(access).releases)
      if (release.fence)
        relays_.push_back({{&access, release.fence}, release});
  }
}

AccessGuards AcquireRelease::findGuards(const MemoryAccess &access) const {
  AccessGuards out;
  for (auto it = model_.accesses.rbegin();
       it != model_.accesses.rend() && out.acquires.size() < kMaxHalves; ++it)
    if (it->order < access.order && acquiresWith(*it))
      out.acquires.push_back(
          {&*it, widestFenceBetween(model_, it->order, access.order)});
  for (const MemoryAccess &other : model_.accesses) {
    if (out.releases.size() == kMaxHalves)
      break;
    if (other.order > access.order && releasesWith(other))
      out.releases.push_back(
          {&other, widestFenceBetween(model_, access.order, other.order)});
  }
  return out;
}

const AccessGuards &AcquireRelease::guards(const MemoryAccess &access) const {
  return guards_[static_cast<size_t>(&access - model_.accesses.data())];
}

z3::expr AcquireRelease::holds(const SyncHalf &half, int thread) const {
  z3::expr out = symbols_.forThread(half.atomic->path_condition, thread);
  if (half.fence)
    out = out && symbols_.forThread(half.fence->path_condition, thread);
  return out;
}

z3::expr AcquireRelease::sameWord(const SyncHalf &x, int tx, const SyncHalf &y,
                                  int ty) const {
  return symbols_.forThread(x.atomic->offset, tx) ==
         symbols_.forThread(y.atomic->offset, ty);
}

z3::expr AcquireRelease::flagOrdered(const MemoryAccess &first, int t1,
                                     const MemoryAccess &second, int t2,
                                     bool inter_block) const {
  z3::expr any = symbols_.context().bool_val(false);
  forEachFlag(guards(first), guards(second), [&](const SyncHalf &release,
                                                 const SyncHalf &acquire) {
    if (reaches(release, inter_block) && reaches(acquire, inter_block))
      any = any || (holds(release, t1) && holds(acquire, t2) &&
                    sameWord(release, t1, acquire, t2));
  });
  for (const SyncHalf &release : guards(first).releases)
    if (release.fence)
      any = any || (holds(release, t1) && relayed(release, t1, second, t2, 3));
  return any;
}

z3::expr AcquireRelease::sameBlock(int tx, int ty) const {
  z3::expr same = symbols_.context().bool_val(true);
  for (int axis = 0; axis < 3; ++axis)
    same = same && symbols_.forThread(symbols_.blockIdx(axis), tx) ==
                       symbols_.forThread(symbols_.blockIdx(axis), ty);
  return same;
}

z3::expr AcquireRelease::hopReaches(const SyncHalf &release, int tx,
                                    const SyncHalf &acquire, int ty) const {
  if (reaches(release, true) && reaches(acquire, true))
    return symbols_.context().bool_val(true);
  if (reaches(release, false) && reaches(acquire, false))
    return sameBlock(tx, ty);
  return symbols_.context().bool_val(false);
}

z3::expr AcquireRelease::relayed(const SyncHalf &release, int from,
                                 const MemoryAccess &second, int to, int relay) const {
  z3::expr any = symbols_.context().bool_val(false);
  if (relay > SymbolSpace::kThreads)
    return any;
  for (const Relay &via : relays_) {
    if (!sameObject(release, via.acquire))
      continue;
    z3::expr onward = symbols_.context().bool_val(false);
    for (const SyncHalf &acquire : guards(second).acquires)
      if (sameObject(via.release, acquire) && !isLockAcquire(guards(second), acquire))
        onward = onward || (holds(acquire, to) && sameWord(via.release, relay, acquire, to) &&
                            hopReaches(via.release, relay, acquire, to));
    onward = onward || relayed(via.release, relay, second, to, relay + 1);
    if (onward.simplify().is_false())
      continue;
    // The relay is some thread of the launch on the relay's path. Its loop
    // facts are left out: they bound iterations by trip counts shared with
    // the pair's threads, and a spin loop's trip count must not decide
    // whether the relay exists.
    z3::expr hop = symbols_.coordinateBounds(relay) && holds(via.acquire, relay) &&
                   holds(via.release, relay) && sameWord(release, from, via.acquire, relay) &&
                   hopReaches(release, from, via.acquire, relay) && onward;
    any = any || z3::exists(symbols_.threadSymbols(relay), hop);
  }
  return any;
}

z3::expr AcquireRelease::lockOrdered(const MemoryAccess &a, const MemoryAccess &b,
                                     bool inter_block) const {
  z3::expr any = symbols_.context().bool_val(false);
  forEachLock(guards(a), guards(b), [&](const std::array<SyncHalf, 4> &halves) {
    const auto &[acquire_a, release_a, acquire_b, release_b] = halves;
    if (std::all_of(halves.begin(), halves.end(),
                    [&](const SyncHalf &h) { return reaches(h, inter_block); }))
      any = any || (holds(acquire_a, 1) && holds(release_a, 1) &&
                    holds(acquire_b, 2) && holds(release_b, 2) &&
                    sameWord(acquire_a, 1, release_a, 1) &&
                    sameWord(acquire_b, 2, release_b, 2) &&
                    sameWord(acquire_a, 1, acquire_b, 2));
  });
  return any;
}

z3::expr AcquireRelease::ordered(const MemoryAccess &a, const MemoryAccess &b,
                                 bool inter_block) const {
  return lockOrdered(a, b, inter_block) || flagOrdered(a, 1, b, 2, inter_block) ||
         flagOrdered(b, 2, a, 1, inter_block);
}

OrderingAttempt AcquireRelease::attempt(const MemoryAccess &a, const MemoryAccess &b,
                                        bool inter_block) const {
  OrderingAttempt out;
  auto consider = [&](OrderingAttempt::Kind kind, const auto &halves) {
    bool fenced = std::all_of(halves.begin(), halves.end(),
                              [](const SyncHalf &h) { return h.fence != nullptr; });
    bool scoped = std::all_of(halves.begin(), halves.end(), [&](const SyncHalf &h) {
      return reaches(h, inter_block);
    });
    if (kind > out.kind)
      out = {kind, false, false};
    if (kind == out.kind) {
      out.fenced |= fenced;
      out.scoped |= fenced && scoped;
    }
  };
  const AccessGuards &ga = guards(a), &gb = guards(b);
  forEachLock(ga, gb, [&](const std::array<SyncHalf, 4> &halves) {
    consider(OrderingAttempt::Kind::Lock, halves);
  });
  auto flag = [&](const SyncHalf &release, const SyncHalf &acquire) {
    consider(OrderingAttempt::Kind::Flag, std::array<SyncHalf, 2>{release, acquire});
  };
  forEachFlag(ga, gb, flag);
  forEachFlag(gb, ga, flag);
  return out;
}

} // namespace gpurace::analyzer
