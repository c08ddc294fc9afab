//===- RaceSet.h - the races one launch exhibited ---------------*- C++ -*-===//
//
// Races are counted per unordered pair of sites and class; each keeps the
// first concrete thread pair and address seen, which is what a user needs
// to reproduce it.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_DETECTOR_RACESET_H
#define GPURACE_RUNTIME_DETECTOR_RACESET_H

#include "gpurace/v1/analysis.pb.h"

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

namespace gpurace::rt {

struct Race {
  // Plan site indices; `first_site` is the access that happened first.
  uint32_t first_site = 0;
  uint32_t second_site = 0;
  v1::RaceClass race_class = v1::RACE_CLASS_UNSPECIFIED;
  v1::SyncDefect defect = v1::SYNC_DEFECT_UNSPECIFIED;
  uint64_t first_tid = 0;
  uint64_t second_tid = 0;
  // Byte address (an offset in the block's window for shared memory).
  uint64_t address = 0;
  bool shared = false;
  uint64_t count = 1;
};

class RaceSet {
public:
  void add(const Race &race);
  // In the order each pair was first seen.
  const std::vector<Race> &races() const { return races_; }

private:
  using Key = std::tuple<uint32_t, uint32_t, int>;
  std::map<Key, size_t> index_;
  std::vector<Race> races_;
};

} // namespace gpurace::rt

#endif
