//===- RepairRun.h - `gpurace fix` on one corpus program --------*- C++ -*-===//
//
// Repairs a copy of a racy corpus program with `gpurace fix --apply`, then
// checks the result from outside: `gpurace analyze` on the repaired copy
// reports no finding that fix said it repaired, and (given nvcc) the copy
// still compiles.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_BENCH_CORPUS_REPAIRRUN_H
#define GPURACE_BENCH_CORPUS_REPAIRRUN_H

#include "gpurace/v1/analysis.pb.h"

#include <string>
#include <vector>

namespace gpurace::corpus {

struct RepairOutcome {
  v1::RepairResult result;
  double seconds = 0;
  // Empty when fix ran and every check passed.
  std::string error;
};

// `nvcc` may be empty: the compile check is then skipped.
RepairOutcome repairCopy(const std::string &gpurace, const std::string &nvcc,
                         const std::string &file, const std::vector<std::string> &companions);

} // namespace gpurace::corpus

#endif
