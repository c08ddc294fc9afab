//===- PairChecker.h - Z3 checks of access pairs ----------------*- C++ -*-===//
//
// For every pair of accesses that could race, and every race class the pair
// could have, asks Z3 for two distinct threads that touch overlapping bytes
// with no synchronization between them. SAT gives a candidate with a
// concrete witness; UNSAT proves the pair race-free in that context, and the
// unsat core names the host facts the proof needed.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_CHECK_PAIRCHECKER_H
#define GPURACE_ANALYZER_CHECK_PAIRCHECKER_H

#include "analyzer/check/LaunchContext.h"
#include "analyzer/model/KernelModel.h"
#include "analyzer/model/SymbolSpace.h"

#include <atomic>
#include <vector>

namespace gpurace::analyzer {

struct CheckOptions {
  unsigned warp_size = 32;
  // Solver effort per query, in Z3 resource units: deterministic, unlike
  // time, so results do not depend on the machine's load. A query that runs
  // out (or past the wall-clock cap) is reported as a potential race
  // without a witness.
  unsigned query_rlimit = 400000;
  // A wall-clock cap per query, a safety net for the few queries that Z3's
  // effort limit does not bound (some nonlinear ones): a pair it stops is
  // reported as undecided and says so, since that verdict depends on the
  // machine. Everything else is decided by the deterministic effort limit.
  unsigned query_timeout_ms = 10000;
  // Queries stopped by that cap so far, counted across the instances and
  // launches of one kernel (one source, checked side by side): once the
  // count grows, the kernel's other queries get a shorter cap.
  // None: each launch counts its own.
  std::atomic<unsigned> *clock_stops = nullptr;
  // Pre-Volta lock-step execution of the lanes of a warp.
  bool assume_warp_lockstep = false;
  // Parameters the launch context assumes distinct may overlap instead.
  bool assume_aliasing = false;
  // With no launch in view, rank low a race that only a thread past the
  // end of its row, or outside a fixed-size tile, has (LaunchFit.h). Off
  // for kernels analyzed alone on purpose (--no-host): every launch counts
  // there, the too-wide grid of a host's mistake included.
  bool rank_launch_overruns = true;
};

struct CheckResult {
  std::vector<v1::RaceCandidate> candidates;
  std::vector<v1::RaceFreedomProof> proofs;
  unsigned queries = 0;
};

CheckResult checkKernel(const KernelModel &model, SymbolSpace &symbols,
                        const LaunchContext &context,
                        const CheckOptions &options);

} // namespace gpurace::analyzer

#endif
