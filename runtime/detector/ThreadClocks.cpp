#include "runtime/detector/ThreadClocks.h"

#include <algorithm>
#include <cassert>

namespace gpurace::rt {

ThreadClocks::ThreadClocks(const LaunchLayout &layout)
    : layout_(layout), warps_(layout.numWarps()),
      block_barriers_(layout.numBlocks()) {
  // Clock 0 means "knows nothing", so every thread starts at 1.
  for (WarpState &w : warps_)
    w.own.fill(1);
}

VectorClock &ThreadClocks::laneKnowledge(WarpState &w, uint32_t lane) {
  if (!w.lanes)
    w.lanes = std::make_unique<std::array<VectorClock, kWarpSize>>();
  return (*w.lanes)[lane];
}

bool ThreadClocks::ordered(const ThreadRef &prior, Clock c, const ThreadRef &t,
                           uint32_t lane) const {
  if (prior.tid == t.tid)
    return true;
  const WarpState &w = warpState(t);
  if (c <= w.shared.get(prior))
    return true;
  return w.lanes && c <= (*w.lanes)[lane].get(prior);
}

VectorClock ThreadClocks::snapshot(const ThreadRef &t, uint32_t lane) const {
  const WarpState &w = warpState(t);
  VectorClock clock = w.shared;
  if (w.lanes)
    clock.join((*w.lanes)[lane]);
  clock.raiseThread(t, w.own[lane]);
  return clock;
}

void ThreadClocks::acquire(const ThreadRef &t, uint32_t lanes,
                           const VectorClock &released) {
  WarpState &w = warpState(t);
  uint32_t live = layout_.liveLanes(t.warp % layout_.warpsPerBlock());
  if ((lanes & live) == live) {
    w.shared.join(released);
    return;
  }
  for (uint32_t lane = 0; lane < kWarpSize; ++lane)
    if (lanes & (1u << lane))
      laneKnowledge(w, lane).join(released);
}

void ThreadClocks::advance(const ThreadRef &t, uint32_t lane) {
  ++warpState(t).own[lane];
}

void ThreadClocks::arrive(std::vector<Generation> &gens, uint32_t number,
                          uint64_t warp_id, WarpState &w) {
  auto it = std::find_if(gens.begin(), gens.end(), [&](const Generation &g) {
    return g.number == number;
  });
  if (it == gens.end()) {
    gens.emplace_back();
    it = gens.end() - 1;
    it->number = number;
  }
  it->max_clock = std::max(it->max_clock, *std::max_element(w.own.begin(), w.own.end()));
  it->joined.join(w.shared);
  if (w.lanes)
    for (const VectorClock &lane : *w.lanes)
      it->joined.join(lane);
  it->arrived_warps.push_back(warp_id);
  ++it->pending;
}

// Every warp that arrived knows every other arrival up to the largest clock
// among them, and continues past it. Warps that never arrived (they exited)
// are left out, so their accesses stay unordered with what follows.
void ThreadClocks::apply(std::vector<Generation> &gens, uint32_t number,
                         WarpState &w, uint64_t group_size, bool whole_grid,
                         uint32_t block) {
  auto it = std::find_if(gens.begin(), gens.end(), [&](const Generation &g) {
    return g.number == number;
  });
  assert(it != gens.end() && "a warp applies only a generation it reached");
  Generation &g = *it;
  w.shared = g.joined;
  w.lanes.reset();
  if (g.arrived_warps.size() == group_size) {
    if (whole_grid)
      w.shared.raiseGrid(g.max_clock);
    else
      w.shared.raiseBlock(block, g.max_clock, layout_);
  } else {
    for (uint64_t warp : g.arrived_warps)
      w.shared.raiseWarp(warp, g.max_clock, layout_);
  }
  w.own.fill(g.max_clock + 1);
  if (--g.pending == 0)
    gens.erase(it);
}

void ThreadClocks::catchUp(uint32_t block, uint32_t warp) {
  WarpState &w = warpState(block, warp);
  while (w.grid_syncs_applied < w.grid_syncs_arrived)
    apply(grid_syncs_, ++w.grid_syncs_applied, w, layout_.numWarps(), true,
          block);
  while (w.barriers_applied < w.barriers_arrived)
    apply(block_barriers_[block], ++w.barriers_applied, w,
          layout_.warpsPerBlock(), false, block);
}

void ThreadClocks::arriveBarrier(uint32_t block, uint32_t warp) {
  WarpState &w = warpState(block, warp);
  arrive(block_barriers_[block], ++w.barriers_arrived,
         block * layout_.warpsPerBlock() + warp, w);
}

void ThreadClocks::arriveGridSync(uint32_t block, uint32_t warp) {
  WarpState &w = warpState(block, warp);
  arrive(grid_syncs_, ++w.grid_syncs_arrived,
         block * layout_.warpsPerBlock() + warp, w);
}

void ThreadClocks::syncWarp(uint32_t block, uint32_t warp, uint32_t arrived,
                            uint32_t mask) {
  WarpState &w = warpState(block, warp);
  mask &= layout_.liveLanes(warp);
  w.syncwarp_waiting |= arrived & mask;
  if ((w.syncwarp_waiting & mask) != mask)
    return;
  w.syncwarp_waiting &= ~mask;

  Clock max_clock = 0;
  VectorClock joined;
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    if (!(mask & (1u << lane)))
      continue;
    max_clock = std::max(max_clock, w.own[lane]);
    if (w.lanes)
      joined.join((*w.lanes)[lane]);
  }
  uint64_t warp_id = block * layout_.warpsPerBlock() + warp;
  if (mask == layout_.liveLanes(warp)) {
    w.shared.join(joined);
    w.shared.raiseWarp(warp_id, max_clock, layout_);
    w.lanes.reset();
  } else {
    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
      if (mask & (1u << lane))
        joined.raiseThread(layout_.thread(block, warp, lane), max_clock);
    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
      if (mask & (1u << lane))
        laneKnowledge(w, lane) = joined;
  }
  for (uint32_t lane = 0; lane < kWarpSize; ++lane)
    if (mask & (1u << lane))
      w.own[lane] = max_clock + 1;
}

size_t ThreadClocks::bytes() const {
  size_t total = warps_.capacity() * sizeof(WarpState) +
                 block_barriers_.capacity() * sizeof(block_barriers_[0]);
  for (const WarpState &w : warps_) {
    total += w.shared.heapBytes();
    if (w.lanes) {
      total += sizeof(*w.lanes);
      for (const VectorClock &lane : *w.lanes)
        total += lane.heapBytes();
    }
  }
  return total;
}

} // namespace gpurace::rt
