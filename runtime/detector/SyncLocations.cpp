#include "runtime/detector/SyncLocations.h"

namespace gpurace::rt {

void SyncLocations::release(uint64_t location, SyncScope scope, uint32_t block,
                            const VectorClock &clock) {
  Location &l = locations_[location];
  Released &r = scope.scope >= kScopeDevice ? l.device_scope[block]
                                            : l.block_scope[block];
  r.clock.join(clock);
  r.if_too_narrow = scope.if_too_narrow;
}

SyncLocations::Acquired SyncLocations::acquire(uint64_t location,
                                               SyncScope scope,
                                               uint32_t block) const {
  Acquired result;
  auto it = locations_.find(location);
  if (it == locations_.end())
    return result;
  const Location &l = it->second;
  for (const auto &[releaser, released] : l.block_scope) {
    if (releaser == block)
      result.clock.join(released.clock);
    else
      result.out_of_scope.push_back({releaser, released.if_too_narrow});
  }
  for (const auto &[releaser, released] : l.device_scope) {
    if (releaser == block || scope.scope >= kScopeDevice)
      result.clock.join(released.clock);
    else
      result.out_of_scope.push_back({releaser, scope.if_too_narrow});
  }
  return result;
}

} // namespace gpurace::rt
