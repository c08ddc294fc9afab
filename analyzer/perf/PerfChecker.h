//===- PerfChecker.h - bank conflicts and coalescing per access -*- C++ -*-===//
//
// PUG's other questions, asked of the race model's symbolic addresses:
// for a shared-memory access, can two lanes of one warp executing it reach
// distinct words of the same bank, and for a global access, can
// neighbouring lanes of a row reach non-neighbouring elements? UNSAT proves
// the access conflict-free (or contiguous) for every launch the context
// allows. SAT gives a witness: the warp's other lanes are then solved for
// with the witness's launch values, and WarpCost prices the whole warp.
// The search asks again for lanes closer together (a worse stride) until
// the price stops rising.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_PERF_PERFCHECKER_H
#define GPURACE_ANALYZER_PERF_PERFCHECKER_H

#include "analyzer/check/LaunchContext.h"
#include "analyzer/model/KernelModel.h"
#include "analyzer/model/SymbolSpace.h"

#include "gpurace/v1/analysis.pb.h"

#include <vector>

namespace gpurace::analyzer {

struct PerfCheckOptions {
  unsigned warp_size = 32;
  // Solver effort and wall-clock cap per query, as for race pairs.
  unsigned query_rlimit = 400000;
  unsigned query_timeout_ms = 10000;
};

// One result per shared or global access site whose address the model
// follows exactly: a proved bound or the worst witness found. Accesses the
// solver cannot decide, or whose addresses depend on loaded values, give
// none.
std::vector<v1::PerfFinding> checkWarpCosts(const KernelModel &model, SymbolSpace &symbols,
                                            const LaunchContext &context,
                                            const PerfCheckOptions &options);

} // namespace gpurace::analyzer

#endif
