#include "analyzer/perf/WarpCost.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

namespace gpurace::analyzer {

namespace {

int64_t floorDiv(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

int64_t floorMod(int64_t a, int64_t b) { return a - floorDiv(a, b) * b; }

} // namespace

int64_t sectorOf(int64_t offset) { return floorDiv(offset, kSectorBytes); }

unsigned lanesPerBankPass(unsigned size_bytes) {
  unsigned width = std::max(size_bytes, kBankWidthBytes);
  return std::max(1u, kSharedBanks * kBankWidthBytes / width);
}

BankConflict bankConflict(const std::vector<LaneOffset> &lanes, unsigned size_bytes) {
  unsigned pass_lanes = lanesPerBankPass(size_bytes);
  // Per pass and bank: the distinct words asked for, and by which lanes.
  std::map<std::pair<unsigned, unsigned>, std::set<int64_t>> words;
  std::map<std::pair<unsigned, unsigned>, std::set<unsigned>> askers;
  for (const LaneOffset &lane : lanes) {
    int64_t first = floorDiv(lane.offset, kBankWidthBytes);
    int64_t last = floorDiv(lane.offset + std::max<int64_t>(size_bytes, 1) - 1, kBankWidthBytes);
    for (int64_t word = first; word <= last; ++word) {
      std::pair<unsigned, unsigned> key{lane.lane / pass_lanes,
                                        static_cast<unsigned>(floorMod(word, kSharedBanks))};
      words[key].insert(word);
      askers[key].insert(lane.lane);
    }
  }
  BankConflict worst;
  for (const auto &[key, distinct] : words) {
    if (!worst.lanes.empty() && distinct.size() <= worst.degree)
      continue;
    worst.degree = static_cast<unsigned>(distinct.size());
    worst.bank = key.second;
    worst.lanes.assign(askers[key].begin(), askers[key].end());
  }
  return worst;
}

SectorCount sectorCount(const std::vector<LaneOffset> &lanes, unsigned size_bytes) {
  std::set<int64_t> sectors;
  // Distinct bytes, as ranges merged in order.
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (const LaneOffset &lane : lanes) {
    int64_t end = lane.offset + std::max<int64_t>(size_bytes, 1);
    ranges.push_back({lane.offset, end});
    for (int64_t s = sectorOf(lane.offset); s <= sectorOf(end - 1); ++s)
      sectors.insert(s);
  }
  std::sort(ranges.begin(), ranges.end());
  int64_t bytes = 0, covered_to = std::numeric_limits<int64_t>::min();
  for (const auto &[begin, end] : ranges) {
    int64_t from = std::max(begin, covered_to);
    if (end > from)
      bytes += end - from;
    covered_to = std::max(covered_to, end);
  }
  SectorCount count;
  count.sectors = static_cast<unsigned>(sectors.size());
  count.best = static_cast<unsigned>((bytes + kSectorBytes - 1) / kSectorBytes);
  return count;
}

} // namespace gpurace::analyzer
