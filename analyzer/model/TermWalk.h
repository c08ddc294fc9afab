//===- TermWalk.h - One visit per shared subterm of a Z3 term -------------===//
//
// The kernel model's terms are DAGs: a loop's value or a launch dimension
// is one node shared by every offset that reads it. A walk that follows
// each parent separately is exponential on them, and a recursive one runs
// out of stack on a long chain of `+`, so every walk over a term goes
// through here: depth first, iterative, each application visited once.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <z3++.h>

#include <functional>
#include <vector>

namespace gpurace::analyzer {

// What a visit tells the walk to do next.
enum class TermVisit {
  Descend, // go on into the term's arguments
  Prune,   // leave the term's arguments unvisited (through this parent)
  // Into an if-then-else's two values, not its condition (what a term can
  // be, not what decides it); any other term's arguments as Descend.
  DescendIntoBranches,
  Stop,    // end the whole walk
};

// Visits every application below `roots` once, parents before arguments.
// Numerals are applications too; bound variables and quantifiers are not
// visited. Returns whether a visit stopped the walk.
bool walkTerms(std::vector<z3::expr> roots,
               const std::function<TermVisit(const z3::expr &)> &visit);

// Calls `visit` on every application below `root`, each once.
void forEachSubterm(const z3::expr &root, const std::function<void(const z3::expr &)> &visit);

// Whether `part` (an application) occurs in `e`.
bool mentions(const z3::expr &e, const z3::expr &part);

// The uninterpreted constants and applications `roots` mention, each once,
// in the order the walk meets them.
std::vector<z3::expr> uninterpretedTerms(std::vector<z3::expr> roots);

} // namespace gpurace::analyzer
