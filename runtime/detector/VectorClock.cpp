#include "runtime/detector/VectorClock.h"

#include <algorithm>
#include <limits>

namespace gpurace::rt {

namespace {
bool keyLess(const std::pair<uint64_t, Clock> &e, uint64_t key) {
  return e.first < key;
}
} // namespace

Clock VectorClock::lookup(const Entries &entries, uint64_t key) {
  auto it = std::lower_bound(entries.begin(), entries.end(), key, keyLess);
  return it != entries.end() && it->first == key ? it->second : 0;
}

void VectorClock::raise(Entries &entries, uint64_t key, Clock c) {
  auto it = std::lower_bound(entries.begin(), entries.end(), key, keyLess);
  if (it != entries.end() && it->first == key)
    it->second = std::max(it->second, c);
  else
    entries.insert(it, {key, c});
}

void VectorClock::merge(Entries &into, const Entries &from) {
  if (from.empty())
    return;
  if (into.empty()) {
    into = from;
    return;
  }
  Entries out;
  out.reserve(into.size() + from.size());
  auto a = into.cbegin();
  auto b = from.cbegin();
  while (a != into.end() || b != from.end()) {
    if (b == from.end() || (a != into.end() && a->first < b->first))
      out.push_back(*a++);
    else if (a == into.end() || b->first < a->first)
      out.push_back(*b++);
    else
      out.push_back({a->first, std::max((a++)->second, (b++)->second)});
  }
  into.swap(out);
}

void VectorClock::prune(Entries &entries, uint64_t first, uint64_t last,
                        Clock c) {
  auto begin = std::lower_bound(entries.begin(), entries.end(), first, keyLess);
  auto end = std::lower_bound(begin, entries.end(), last, keyLess);
  auto kept = std::remove_if(begin, end, [c](const auto &e) {
    return e.second <= c;
  });
  entries.erase(kept, end);
}

Clock VectorClock::get(const ThreadRef &t) const {
  Clock c = grid_;
  c = std::max(c, lookup(blocks_, t.block));
  c = std::max(c, lookup(warps_, t.warp));
  return std::max(c, lookup(threads_, t.tid));
}

void VectorClock::raiseGrid(Clock c) {
  if (c <= grid_)
    return;
  grid_ = c;
  constexpr uint64_t kAll = std::numeric_limits<uint64_t>::max();
  prune(blocks_, 0, kAll, c);
  prune(warps_, 0, kAll, c);
  prune(threads_, 0, kAll, c);
}

void VectorClock::raiseBlock(uint32_t block, Clock c,
                             const LaunchLayout &layout) {
  if (c <= std::max(grid_, lookup(blocks_, block)))
    return;
  raise(blocks_, block, c);
  uint64_t wpb = layout.warpsPerBlock(), tpb = layout.threadsPerBlock();
  prune(warps_, block * wpb, (block + 1) * wpb, c);
  prune(threads_, block * tpb, (block + 1) * tpb, c);
}

void VectorClock::raiseWarp(uint64_t warp, Clock c,
                            const LaunchLayout &layout) {
  uint32_t block = layout.blockOfWarp(warp);
  Clock known = std::max({grid_, lookup(blocks_, block), lookup(warps_, warp)});
  if (c <= known)
    return;
  raise(warps_, warp, c);
  uint64_t first = block * layout.threadsPerBlock() +
                   (warp % layout.warpsPerBlock()) * kWarpSize;
  prune(threads_, first, first + kWarpSize, c);
}

void VectorClock::raiseThread(const ThreadRef &t, Clock c) {
  if (c > get(t))
    raise(threads_, t.tid, c);
}

void VectorClock::join(const VectorClock &other) {
  grid_ = std::max(grid_, other.grid_);
  merge(blocks_, other.blocks_);
  merge(warps_, other.warps_);
  merge(threads_, other.threads_);
}

size_t VectorClock::heapBytes() const {
  constexpr size_t kEntry = sizeof(Entries::value_type);
  return (blocks_.capacity() + warps_.capacity() + threads_.capacity()) *
         kEntry;
}

} // namespace gpurace::rt
