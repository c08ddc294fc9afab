//===- Arith.h - C integer arithmetic as Z3 terms ---------------*- C++ -*-===//
//
// Kernel index arithmetic in one of two models: mathematical integers (the
// default: "no overflow" is stated as an assumption of every verdict) or
// two's-complement bit-vectors of the C type's width (--overflow=wrap).
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_MODEL_ARITH_H
#define GPURACE_ANALYZER_MODEL_ARITH_H

#include <z3++.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace gpurace::analyzer {

enum class OverflowMode { Math, Wrap };

struct IntType {
  unsigned width = 32;
  bool is_signed = true;
};

inline constexpr IntType kInt32{32, true};
inline constexpr IntType kUInt32{32, false};
inline constexpr IntType kInt64{64, true};
inline constexpr IntType kUInt64{64, false};

class Arith {
public:
  Arith(z3::context &context, OverflowMode mode);

  z3::context &context() const { return context_; }
  OverflowMode mode() const { return mode_; }
  z3::sort sortOf(IntType type) const;

  z3::expr constant(int64_t value, IntType type) const;
  z3::expr symbol(const std::string &name, IntType type) const;

  // Converts between C integer types (a no-op on mathematical integers).
  z3::expr convert(const z3::expr &value, IntType from, IntType to) const;

  z3::expr add(const z3::expr &a, const z3::expr &b) const { return a + b; }
  z3::expr sub(const z3::expr &a, const z3::expr &b) const { return a - b; }
  z3::expr mul(const z3::expr &a, const z3::expr &b) const { return a * b; }
  z3::expr div(const z3::expr &a, const z3::expr &b, bool is_signed) const;
  z3::expr rem(const z3::expr &a, const z3::expr &b, bool is_signed) const;
  z3::expr less(const z3::expr &a, const z3::expr &b, bool is_signed) const;
  z3::expr lessEq(const z3::expr &a, const z3::expr &b, bool is_signed) const;

  // Shifts and bitwise operations are exact on bit-vectors. On mathematical
  // integers the forms with one constant operand are exact (shift by a
  // constant, `x & c`, `x | c`, `x ^ c`, through div and mod by powers of
  // two), as are those of two operands whose set bits cannot meet (a
  // bit field below a multiple of 2^k: `(x << 1) | (y >> 4 & 1)`); the
  // others return nothing and the caller over-approximates.
  std::optional<z3::expr> shiftLeft(const z3::expr &a, const z3::expr &b) const;
  std::optional<z3::expr> shiftRight(const z3::expr &a, const z3::expr &b,
                                     bool is_signed) const;
  std::optional<z3::expr> bitAnd(const z3::expr &a, const z3::expr &b) const;
  std::optional<z3::expr> bitOr(const z3::expr &a, const z3::expr &b) const;
  std::optional<z3::expr> bitXor(const z3::expr &a, const z3::expr &b) const;

  // The highest e with 2^e a value of `t`, capped at 62 so that 2^e is an
  // int64_t constant.
  static int topPowerOfTwoExponent(IntType t);
  // `value` is 0 or a power of two of type `t`: a disjunction of constants.
  z3::expr powerOfTwoOrZero(const z3::expr &value, IntType t) const;

  // That `value` is one of `type`'s values: always true on bit-vectors,
  // its bounds on mathematical integers.
  z3::expr inRange(const z3::expr &value, IntType type) const;

  // Lifts a Bool to 0/1 of `type` and back.
  z3::expr fromBool(const z3::expr &condition, IntType type) const;
  z3::expr toBool(const z3::expr &value) const;

  // The numeric value of a model's evaluation of `value`.
  static std::optional<int64_t> numeral(const z3::expr &value, bool is_signed);

private:
  // x & mask on mathematical integers.
  z3::expr maskedBits(const z3::expr &x, int64_t mask) const;
  // One operand is a bit field below 2^k and the other a multiple of 2^k,
  // so that `|` and `^` are sums and `&` is 0.
  static bool disjointBits(const z3::expr &a, const z3::expr &b);
  // The non-constant operand and the constant one, when one is constant.
  std::optional<std::pair<z3::expr, int64_t>>
  withConstantMask(const z3::expr &a, const z3::expr &b) const;

  z3::context &context_;
  OverflowMode mode_;
};

} // namespace gpurace::analyzer

#endif
