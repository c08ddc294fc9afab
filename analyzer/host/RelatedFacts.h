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

namespace gpurace::analyzer {

// Removes from `context` the facts over host values that share none,
// directly or through other facts, with a kernel symbol, a buffer's size or
// an alias condition, where those facts are satisfiable on their own.
void keepRelatedFacts(LaunchContext &context, z3::context &z3);

} // namespace gpurace::analyzer

#endif
