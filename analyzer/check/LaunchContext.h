//===- LaunchContext.h - what a launch tells about a kernel -----*- C++ -*-===//
//
// One context in which a kernel runs: a launch site with the facts the host
// code establishes about dims and arguments, or the command line's dims for
// a kernel with no visible launch. Facts are Z3 terms over the shared
// symbols of the kernel's SymbolSpace.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_CHECK_LAUNCHCONTEXT_H
#define GPURACE_ANALYZER_CHECK_LAUNCHCONTEXT_H

#include "gpurace/v1/analysis.pb.h"

#include <z3++.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gpurace::analyzer {

struct Fact {
  z3::expr term;
  v1::Assumption assumption;
};

struct LaunchContext {
  // Absent when the kernel has no visible launch.
  std::optional<v1::LaunchSite> site;
  std::vector<Fact> facts;
  // Pairs of pointer-parameter indices that may point into the same
  // buffer. Parameters not listed are distinct allocations.
  std::set<std::pair<int, int>> may_alias;
  // Pairs of `may_alias` whose sharing depends on host values (a pointer
  // set on several paths, buffers a loop exchanges): they point into one
  // buffer only where the condition, over shared symbols, holds.
  std::map<std::pair<int, int>, z3::expr> alias_conditions;
  // Pairs of pointer parameters that host facts keep in separate buffers
  // although they may each name the same ones (a pointer set on several
  // paths, buffers a loop exchanges): the facts, which a race-free verdict
  // on the pair rests on.
  std::map<std::pair<int, int>, std::vector<v1::Assumption>> kept_apart;
  // Pointer parameters into a shared buffer whose place in it the host code
  // shows (a fact on their base symbol): their aliasing is exact.
  std::set<int> placed;
  // Pointer parameters whose origin the host code does not show (a global,
  // a pointer copied from another): they may alias any other.
  std::set<int> unknown_origin;
  // Pointer parameters passed on from parameters of a host function with no
  // visible caller (a library's launch wrapper): distinct from every other
  // buffer, an assumption results state (or unknown, with
  // CheckOptions::assume_aliasing).
  std::set<int> assumed_distinct;
  // Bytes of the allocation behind a pointer parameter, where the host code
  // shows it: accesses through the parameter stay inside.
  std::map<int, z3::expr> buffer_bytes;
  // Launch-wide values (dims, arguments; by the name of their kernel
  // symbol) that the host sets from something it cannot follow: a
  // candidate whose addresses depend on one carries the imprecision.
  std::map<std::string, v1::Imprecision> imprecisions;
};

} // namespace gpurace::analyzer

#endif
