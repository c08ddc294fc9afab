//===- RepairCandidates.h - source changes that may remove a race -*- C++ -*-===//
//
// For one finding, the changes worth verifying, cheapest first:
//  - a read-modify-write both threads run (`x += v`, `count[i]++`,
//    `x = x + v`, `x = max(x, v)`) becomes the matching atomic;
//  - a plain read or store racing with atomics becomes an atomic too
//    (`atomicAdd(&x, 0)`, `atomicExch(&x, v)`);
//  - block-scope synchronization meant to order threads of different
//    blocks (`atomicAdd_block`, `__threadfence_block()`,
//    `cuda::thread_scope_block`) is widened to device scope;
//  - an assignment that races with itself is split: its right-hand side
//    read into a local, the barrier, then the store (under its guard's
//    value when it is the body of an `if`);
//  - a synchronization of the race's scope (`__syncthreads()`, or
//    `__syncwarp()` between lanes of a warp) goes between the two
//    accesses: in the innermost block of statements that holds both, before
//    the later one, then before the earlier one (for a race between loop
//    iterations), after the later one, and again in each enclosing block.
// Whether a candidate holds is not decided here: the repairer re-analyzes
// the edited program, so a barrier that threads may not all reach is
// rejected by the barrier-divergence check like any other.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_REPAIR_REPAIRCANDIDATES_H
#define GPURACE_ANALYZER_REPAIR_REPAIRCANDIDATES_H

#include "analyzer/repair/SourceEdits.h"

#include "gpurace/v1/analysis.pb.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
}

namespace gpurace::analyzer {

struct RepairCandidate {
  // "atomic", "scope", "barrier", "fence", "grid-sync" or "barrier-moved".
  std::string kind;
  // One line for the user: "insert __syncthreads() before line 12".
  std::string summary;
  // What the change needs beyond the edit (a cooperative launch).
  std::string prerequisite;
  std::vector<TextEdit> edits;
};

// Why no candidate was found, when the list is empty.
struct CandidateSearch {
  std::vector<RepairCandidate> candidates;
  std::string none_because;
};

// Candidates for `finding` in `file` as parsed (device side) into `ast`;
// `text` is the file's text that `ast` was parsed from.
CandidateSearch repairCandidates(const v1::RaceCandidate &finding, const std::string &file,
                                 const std::string &text, clang::ASTContext &ast);

} // namespace gpurace::analyzer

#endif
