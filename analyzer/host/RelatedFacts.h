//===- RelatedFacts.h - the host facts a launch's kernel can use -*- C++ -*-===//
//
// The host code around a launch says much that never reaches the kernel: a
// timing loop's counter, a command-line flag tested on the way, what a
// helper returns to a caller that only prints it. A fact over host values
// matters to the kernel only through a chain of shared host values to a
// dim, an argument, a buffer's size or its aliasing; the others are dropped
// from the launch's context, so that every query does not carry them and
// no candidate lists them as used. Dropping them is exact as long as they
// hold together: where they contradict each other the launch is never
// reached, and every fact is kept to show it.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_HOST_RELATEDFACTS_H
#define GPURACE_ANALYZER_HOST_RELATEDFACTS_H

#include "analyzer/check/LaunchContext.h"

#include <z3++.h>

#include <map>
#include <string>
#include <vector>

namespace gpurace::analyzer {

// Whether sets of host facts can all hold, known by their text. The
// instances of a kernel template launched from one host function see the
// same host facts (cuda-samples' threadFenceReduction.cu: 40 instances per
// call chain), and each would otherwise ask the solver the same question.
// Used as a unit's kernels are prepared, in turn: the first instance's
// answer is every later one's, whatever --jobs is.
class FactSetVerdicts {
public:
  bool satisfiable(const std::vector<z3::expr> &facts, z3::context &z3);

private:
  std::map<std::string, bool> known_;
};

// Removes from `context` the facts over host values that share none,
// directly or through other facts, with a kernel symbol, a buffer's size or
// an alias condition, where those facts are satisfiable on their own.
void keepRelatedFacts(LaunchContext &context, z3::context &z3, FactSetVerdicts &verdicts);

} // namespace gpurace::analyzer

#endif
