//===- RedundantBarriers.h - barriers a kernel does not need ----*- C++ -*-===//
//
// `gpurace fix --redundant-barriers`: each barrier statement of the
// analyzed files (`__syncthreads()`, `__syncwarp(...)`, a block or tile
// group's `sync()`) is deleted from the text in memory and the program is
// analyzed again. A barrier is redundant when, without it, no candidate
// appears that was not there with it, at any score: every launch context
// stays as race-free as it was, and an undecided pair counts against it.
// Each barrier is judged alone; two barriers may each be redundant while
// the pair of them is not.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_REPAIR_REDUNDANTBARRIERS_H
#define GPURACE_ANALYZER_REPAIR_REDUNDANTBARRIERS_H

#include "analyzer/AnalyzeOptions.h"

#include "gpurace/v1/analysis.pb.h"

#include <string>
#include <vector>

namespace gpurace::analyzer {

struct BarrierSearch {
  // Barrier statements tried.
  unsigned checked = 0;
  std::vector<v1::RedundantBarrier> redundant;
};

// Fails only when the program cannot be analyzed at all.
bool findRedundantBarriers(const AnalyzeOptions &options, BarrierSearch &search,
                           std::string &error);

} // namespace gpurace::analyzer

#endif
