//===- WarpCost.h - what one warp's access costs the memory system -*- C++ -*-===//
//
// The hardware's rules for one warp executing one access, applied to the
// byte offsets its active lanes access: how many times shared memory
// replays it (bank conflicts) and how many 32-byte sectors of global memory
// it touches (coalescing). Pure functions: PerfChecker finds the lanes'
// offsets, this unit prices them.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_PERF_WARPCOST_H
#define GPURACE_ANALYZER_PERF_WARPCOST_H

#include <cstdint>
#include <vector>

namespace gpurace::analyzer {

// One active lane of a warp and the byte offset it accesses.
struct LaneOffset {
  unsigned lane = 0;
  int64_t offset = 0;
};

inline constexpr unsigned kSharedBanks = 32;
inline constexpr unsigned kBankWidthBytes = 4;
inline constexpr unsigned kSectorBytes = 32;

// The lanes that shared memory serves in one pass: a warp's requests of 4
// bytes or less together, 8-byte requests per half warp, 16-byte requests
// per quarter warp (each pass moves at most 32 banks of 4 bytes).
unsigned lanesPerBankPass(unsigned size_bytes);

struct BankConflict {
  // The most distinct 4-byte words one bank serves in one pass: 1 is
  // conflict-free. Lanes reading the same word share it (broadcast).
  unsigned degree = 1;
  unsigned bank = 0;
  // The lanes that access the worst bank, in lane order.
  std::vector<unsigned> lanes;
};

// The offsets are relative to a shared array whose start is taken as bank
// 0 (arrays are aligned to at least their element size).
BankConflict bankConflict(const std::vector<LaneOffset> &lanes, unsigned size_bytes);

struct SectorCount {
  // 32-byte sectors the lanes' bytes fall in.
  unsigned sectors = 0;
  // Sectors the same number of distinct bytes needs when contiguous and
  // aligned: what a coalesced access costs.
  unsigned best = 0;
};

// The 32-byte sector a byte offset falls in (rounding down, also below 0).
int64_t sectorOf(int64_t offset);

// The offsets are relative to an allocation aligned to at least 256 bytes
// (cudaMalloc's alignment), so a sector is offset / 32.
SectorCount sectorCount(const std::vector<LaneOffset> &lanes, unsigned size_bytes);

} // namespace gpurace::analyzer

#endif
