//===- RangeSimplifier.h - div and mod by constants over small ranges -*- C++ -*-===//
//
// Index arithmetic divides thread coordinates by constants all the time
// (`tid / 32`, `tid % 16`, the bit fields of `tid >> 4 & 1`), and the
// checker asks the same question of two threads. Z3 handles each integer
// division by a constant with a fresh quotient and remainder and finds
// their values by branch and bound, which makes queries over a handful of
// such terms slow. Once a launch fixes the block's shape, the dividends
// range over a few values: a division whose dividend stays within one
// quotient is that quotient, and one that spans a few is a chain of
// linear cases. Both are exact under the bounds the solver is given, so
// the verdicts do not change, only the time to reach them.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_CHECK_RANGESIMPLIFIER_H
#define GPURACE_ANALYZER_CHECK_RANGESIMPLIFIER_H

#include <z3++.h>

#include <cstdint>
#include <optional>
#include <unordered_map>

namespace gpurace::analyzer {

class RangeSimplifier {
public:
  // A division spanning more quotients than this is left to the solver.
  static constexpr int64_t kMaxCases = 2;

  explicit RangeSimplifier(z3::context &context) : context_(context) {}

  // `symbol` lies in [low, high] wherever the simplified terms are used.
  void bound(const z3::expr &symbol, int64_t low, int64_t high);

  // `term` with every integer div and mod by a positive constant whose
  // dividend's range is known rewritten as above; equal to `term` under
  // the stated bounds.
  z3::expr simplify(const z3::expr &term);

private:
  // An interval of integers; a missing end is unbounded. Ends are kept
  // below 2^62 in magnitude so that sums and products stay exact.
  struct Range {
    std::optional<int64_t> low, high;
  };
  struct Rewritten {
    z3::expr term;
    Range range;
  };

  Rewritten visit(const z3::expr &term);
  Rewritten rebuild(const z3::expr &term);
  Rewritten divideOrRemainder(const z3::expr &term, const Rewritten &dividend,
                              int64_t divisor);

  z3::context &context_;
  std::unordered_map<unsigned, Range> bounds_;
  // Results by term id; the stored terms keep those ids alive.
  std::unordered_map<unsigned, std::pair<z3::expr, Rewritten>> done_;
};

} // namespace gpurace::analyzer

#endif
