//===- DivergenceRepairs.h - barriers that all threads reach ----*- C++ -*-===//
//
// The repairs of barrier divergence, cheapest to the program's meaning
// first:
//  - split the branch around the barrier: `if (c) { A; B; C; }` becomes
//    `if (c) { A; } B; if (c) { C; }`, which keeps what each thread does
//    and makes every thread reach B. Only when `c` has no side effects and
//    A writes nothing `c` reads, so that evaluating it twice is the same;
//  - an early exit before the barrier, `if (c) return; A; B; C;`, becomes
//    guards: `if (!c) { A; } B; if (!c) { C; }`, under the same conditions;
//  - move the barrier after, then before, the branch or loop that threads
//    can disagree on.
// As for races, the repairer re-analyzes each candidate: a barrier that
// was there to order accesses inside the branch and is moved away brings a
// race, and the candidate is rejected.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_REPAIR_DIVERGENCEREPAIRS_H
#define GPURACE_ANALYZER_REPAIR_DIVERGENCEREPAIRS_H

#include "analyzer/repair/RepairCandidates.h"

namespace gpurace::analyzer {

// Candidates for the divergent barrier of `finding` (its first site), in
// `text` as parsed into `ast`.
CandidateSearch divergenceRepairs(const v1::RaceCandidate &finding, const std::string &text,
                                  clang::ASTContext &ast);

} // namespace gpurace::analyzer

#endif
