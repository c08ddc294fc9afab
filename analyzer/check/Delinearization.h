//===- Delinearization.h - lemmas for row-major offsets ---------*- C++ -*-===//
//
// Offsets such as `y * width + x` (one thread) against `y' * width + x'`
// (another) are non-linear: the solver's arithmetic may run out of effort on
// them even when 0 <= x, x' < width makes the answer plain. This unit reads
// both offsets as polynomials and states, for every launch-wide factor s,
// the valid implication
//
//   s * Q + R == 0  and  |R| < |s|   implies   Q == 0 and R == 0
//
// (and, with no R, s * Q == 0 and s != 0 implies Q == 0: the factor of a
// scan step, `offset * (2t + 2)` against `offset * (2t' + 1)`, cancels),
// recursively on Q and R. Each lemma is a theorem of integer arithmetic, so
// adding it changes no verdict; it hands the solver the case split that
// turns the query linear.
//
// Three readings widen what counts as such an offset, each stated as a
// premise of the lemmas so that they stay theorems:
// - a value the model splits by a power of two (`x & (s - 1)`: x == q * s +
//   r) is read split, so `2 * x - (x & (s - 1))` is `2 * q * s + r`;
// - a launch-wide value read both whole and divided by a constant
//   (`row * pitch` and `r * (pitch / 2)`) is read as c * (pitch / c)
//   under the premise that the division is exact, where the launch's
//   facts say it is (a pitch cudaMallocPitch keeps a multiple of 16
//   bytes): elsewhere the reading would only cost the solver;
// - a factor that is the same term for both threads in the same
//   iterations (a loop's stride `s >>= 1`) is one factor, under the
//   premise that its two renamings are equal.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_CHECK_DELINEARIZATION_H
#define GPURACE_ANALYZER_CHECK_DELINEARIZATION_H

#include <z3++.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace gpurace::analyzer {

// One side of an overlap: a byte offset as the model states it (its
// thread-local symbols not yet renamed), the renaming for its thread, and
// the access's size.
struct OffsetSide {
  z3::expr offset;
  std::function<z3::expr(const z3::expr &)> for_thread;
  int64_t size_bytes;
};

// A value of the unrenamed model and its split: value == quotient *
// divisor + remainder wherever `holds` does, as the model's facts state
// case by case. The lemmas assume the split; one more lemma states it
// under `holds`, in the one form the others use (a consequence of the
// facts, so it changes no verdict either).
struct ValueSplit {
  z3::expr value, quotient, divisor, remainder, holds;
};

struct DelinearizationTerms {
  // Whether a term of the unrenamed model is the same for every thread.
  std::function<bool(const z3::expr &)> is_launch_wide;
  // Whether a term, not launch-wide, is one that two threads may share (a
  // loop value of their common iterations): read as one factor.
  std::function<bool(const z3::expr &)> may_share = nullptr;
  std::vector<ValueSplit> splits = {};
  // Whether a launch-wide value is known to be a multiple of a constant
  // divisor (`stride` of `stride / 2`): only then is it read as divisor *
  // quotient. Without it, no such reading.
  std::function<bool(const z3::expr &value, const z3::expr &divisor)> divides_exactly = nullptr;
};

// Lemmas, over the renamed symbols, that hold whenever the byte ranges
// [a, a + size_a) and [b, b + size_b) overlap. Empty when the offsets are
// not integer polynomials (bit-vectors, or a common factor smaller than
// the accesses).
std::vector<z3::expr> delinearizationLemmas(const OffsetSide &a, const OffsetSide &b,
                                            const DelinearizationTerms &terms);

// An offset read as `stride * Q + rest` for one launch-wide atom `stride`
// that multiplies a term that is not launch-wide (`y * width + x`: width,
// and x). `rest` leaves out the offset's constant (`x + 1` is read as x).
struct RowSplit {
  z3::expr stride, rest;
};

// The row splits of `offset`, one per such atom; none where it is not an
// integer polynomial.
std::vector<RowSplit> rowSplits(const z3::expr &offset,
                                const std::function<bool(const z3::expr &)> &is_launch_wide);

} // namespace gpurace::analyzer

#endif
