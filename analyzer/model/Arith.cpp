#include "analyzer/model/Arith.h"

#include <algorithm>
#include <string>

namespace gpurace::analyzer {

Arith::Arith(z3::context &context, OverflowMode mode)
    : context_(context), mode_(mode) {}

z3::sort Arith::sortOf(IntType type) const {
  return mode_ == OverflowMode::Math ? context_.int_sort()
                                     : context_.bv_sort(type.width);
}

z3::expr Arith::constant(int64_t value, IntType type) const {
  if (mode_ == OverflowMode::Math)
    return context_.int_val(value);
  return context_.bv_val(static_cast<uint64_t>(value), type.width);
}

z3::expr Arith::symbol(const std::string &name, IntType type) const {
  return context_.constant(name.c_str(), sortOf(type));
}

z3::expr Arith::convert(const z3::expr &value, IntType from, IntType to) const {
  if (mode_ == OverflowMode::Math || from.width == to.width)
    return value;
  if (to.width < from.width)
    return value.extract(to.width - 1, 0);
  unsigned extra = to.width - from.width;
  return from.is_signed ? z3::sext(value, extra) : z3::zext(value, extra);
}

z3::expr Arith::inRange(const z3::expr &value, IntType type) const {
  if (mode_ == OverflowMode::Wrap)
    return context_.bool_val(true);
  unsigned magnitude = type.is_signed ? type.width - 1 : type.width;
  std::string two_to_the = magnitude >= 64 ? "18446744073709551616"
                                            : std::to_string(uint64_t(1) << magnitude);
  z3::expr top = context_.int_val(two_to_the.c_str());
  z3::expr low = type.is_signed ? -top : context_.int_val(0);
  return low <= value && value < top;
}

z3::expr Arith::div(const z3::expr &a, const z3::expr &b, bool is_signed) const {
  if (mode_ == OverflowMode::Math)
    return a / b;
  return is_signed ? a / b : z3::udiv(a, b);
}

z3::expr Arith::rem(const z3::expr &a, const z3::expr &b, bool is_signed) const {
  if (mode_ == OverflowMode::Math)
    return z3::mod(a, b);
  return is_signed ? z3::srem(a, b) : z3::urem(a, b);
}

z3::expr Arith::less(const z3::expr &a, const z3::expr &b, bool is_signed) const {
  if (mode_ == OverflowMode::Math || is_signed)
    return a < b;
  return z3::ult(a, b);
}

z3::expr Arith::lessEq(const z3::expr &a, const z3::expr &b,
                       bool is_signed) const {
  if (mode_ == OverflowMode::Math || is_signed)
    return a <= b;
  return z3::ule(a, b);
}

namespace {
std::optional<int64_t> smallConstant(const z3::expr &e) {
  int64_t v = 0;
  if (e.is_numeral_i64(v))
    return v;
  return std::nullopt;
}

// e / d when every term of e is a multiple of d, with no division left:
// `(x * 16) >> 4` is x, which the solver need not reason its way to.
std::optional<z3::expr> quotientOfMultiple(const z3::expr &e, int64_t d) {
  int64_t v = 0;
  if (e.is_numeral_i64(v))
    return v % d == 0 ? std::optional(e.ctx().int_val(v / d)) : std::nullopt;
  if (!e.is_app())
    return std::nullopt;
  Z3_decl_kind kind = e.decl().decl_kind();
  if (kind == Z3_OP_MUL) {
    for (unsigned i = 0; i < e.num_args(); ++i) {
      std::optional<z3::expr> part = quotientOfMultiple(e.arg(i), d);
      if (!part)
        continue;
      z3::expr product = *part;
      for (unsigned j = 0; j < e.num_args(); ++j)
        if (j != i)
          product = product * e.arg(j);
      return product;
    }
    return std::nullopt;
  }
  if (kind == Z3_OP_ADD) {
    std::optional<z3::expr> sum;
    for (unsigned i = 0; i < e.num_args(); ++i) {
      std::optional<z3::expr> part = quotientOfMultiple(e.arg(i), d);
      if (!part)
        return std::nullopt;
      sum = sum ? *sum + *part : *part;
    }
    return sum;
  }
  return std::nullopt;
}
} // namespace

std::optional<z3::expr> Arith::shiftLeft(const z3::expr &a,
                                         const z3::expr &b) const {
  if (mode_ == OverflowMode::Wrap)
    return z3::shl(a, b);
  auto amount = smallConstant(b.simplify());
  if (!amount || *amount < 0 || *amount > 62)
    return std::nullopt;
  return a * context_.int_val(int64_t(1) << *amount);
}

std::optional<z3::expr> Arith::shiftRight(const z3::expr &a, const z3::expr &b,
                                          bool is_signed) const {
  if (mode_ == OverflowMode::Wrap)
    return is_signed ? z3::ashr(a, b) : z3::lshr(a, b);
  auto amount = smallConstant(b.simplify());
  if (!amount || *amount < 0 || *amount > 62)
    return std::nullopt;
  int64_t divisor = int64_t(1) << *amount;
  if (std::optional<z3::expr> exact = quotientOfMultiple(a, divisor))
    return exact->simplify();
  return a / context_.int_val(divisor);
}

// Two's-complement bit i of any integer x is (x div 2^i) mod 2 under Z3's
// floor division, so a run of mask bits [lo, hi) selects
// ((x div 2^lo) mod 2^(hi - lo)) * 2^lo exactly, for negative x as well.
z3::expr Arith::maskedBits(const z3::expr &x, int64_t mask) const {
  if (mask < 0) // x & c == x - (x & ~c)
    return x - maskedBits(x, ~mask);
  z3::expr sum = context_.int_val(0);
  for (int lo = 0; lo < 63; ++lo) {
    if (!((mask >> lo) & 1))
      continue;
    int hi = lo;
    while (hi < 63 && ((mask >> hi) & 1))
      ++hi;
    z3::expr shifted = lo == 0 ? x : x / context_.int_val(int64_t(1) << lo);
    z3::expr run = z3::mod(shifted, context_.int_val(int64_t(1) << (hi - lo)));
    sum = sum + (lo == 0 ? run : run * context_.int_val(int64_t(1) << lo));
    lo = hi;
  }
  return sum.simplify();
}

namespace {

// k when `e` is the constant 2^k.
std::optional<int> powerOfTwoExponent(const z3::expr &e) {
  int64_t v = 0;
  if (!e.is_numeral_i64(v) || v <= 0 || (v & (v - 1)) != 0)
    return std::nullopt;
  return __builtin_ctzll(static_cast<uint64_t>(v));
}

// k when `e` is a remainder by 2^k (`x mod 2^k`, as maskedBits builds it).
std::optional<int> remainderExponent(const z3::expr &e) {
  if (!e.is_app() || e.decl().decl_kind() != Z3_OP_MOD)
    return std::nullopt;
  return powerOfTwoExponent(e.arg(1));
}

// How many low bits of `e` are zero whatever its symbols: those of a
// multiple of 2^k, as a shift left or a mask with clear low bits leaves.
int knownZeroLowBits(const z3::expr &e) {
  int64_t v = 0;
  if (e.is_numeral_i64(v))
    return v == 0 ? 63 : __builtin_ctzll(static_cast<uint64_t>(v));
  if (!e.is_app())
    return 0;
  switch (e.decl().decl_kind()) {
  case Z3_OP_MUL: {
    int sum = 0;
    for (unsigned i = 0; i < e.num_args(); ++i)
      sum += knownZeroLowBits(e.arg(i));
    return std::min(sum, 63);
  }
  case Z3_OP_SUB:
    // x - x mod 2^k: x with its low k bits cleared (maskedBits' operand
    // comes back simplified).
    if (std::optional<int> k = remainderExponent(e.arg(e.num_args() - 1));
        k && e.num_args() == 2 && z3::eq(e.arg(1).arg(0), e.arg(0).simplify()))
      return *k;
    [[fallthrough]];
  case Z3_OP_ADD: {
    int least = 63;
    for (unsigned i = 0; i < e.num_args(); ++i)
      least = std::min(least, knownZeroLowBits(e.arg(i)));
    return least;
  }
  case Z3_OP_ITE:
    return std::min(knownZeroLowBits(e.arg(1)), knownZeroLowBits(e.arg(2)));
  default:
    return 0;
  }
}

// A k with 0 <= e < 2^k whatever its symbols: a remainder by 2^k (a
// masked or extracted bit field), a constant, or such a value shifted left.
std::optional<int> knownBitWidth(const z3::expr &e) {
  int64_t v = 0;
  if (e.is_numeral_i64(v))
    return v < 0 ? std::nullopt : std::optional(64 - __builtin_clzll(uint64_t(v) | 1));
  if (!e.is_app())
    return std::nullopt;
  switch (e.decl().decl_kind()) {
  case Z3_OP_MOD:
    return remainderExponent(e);
  case Z3_OP_MUL: {
    int sum = 0;
    for (unsigned i = 0; i < e.num_args(); ++i) {
      // A factor 2^k shifts the bits by k: it adds k bits, not k + 1.
      std::optional<int> w = powerOfTwoExponent(e.arg(i));
      if (!w)
        w = knownBitWidth(e.arg(i));
      if (!w)
        return std::nullopt;
      sum += *w;
    }
    return sum < 63 ? std::optional(sum) : std::nullopt;
  }
  case Z3_OP_ITE: {
    std::optional<int> x = knownBitWidth(e.arg(1)), y = knownBitWidth(e.arg(2));
    return x && y ? std::optional(std::max(*x, *y)) : std::nullopt;
  }
  case Z3_OP_ADD: {
    // Fields in bits of their own (`x | y` of disjoint fields is their sum)
    // need no more bits than the widest; any other sum may carry one more.
    std::optional<int> width;
    int zero_low = 63;
    for (unsigned i = 0; i < e.num_args(); ++i) {
      std::optional<int> w = knownBitWidth(e.arg(i));
      if (!w)
        return std::nullopt;
      int z = knownZeroLowBits(e.arg(i));
      bool apart = !width || *w <= zero_low || *width <= z;
      width = std::max(width.value_or(0), *w) + (apart ? 0 : 1);
      zero_low = std::min(zero_low, z);
    }
    return width && *width < 63 ? width : std::nullopt;
  }
  case Z3_OP_IDIV: {
    // A shift right of a bit field (`(x & 48) >> 4`) drops its low bits.
    std::optional<int> width = knownBitWidth(e.arg(0));
    std::optional<int> shift = powerOfTwoExponent(e.arg(1));
    return width && shift ? std::optional(std::max(*width - *shift, 0)) : std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

} // namespace

bool Arith::disjointBits(const z3::expr &a, const z3::expr &b) {
  auto below = [](const z3::expr &low, const z3::expr &high) {
    std::optional<int> width = knownBitWidth(low);
    return width && *width <= knownZeroLowBits(high);
  };
  return below(a, b) || below(b, a);
}

std::optional<std::pair<z3::expr, int64_t>>
Arith::withConstantMask(const z3::expr &a, const z3::expr &b) const {
  if (auto m = smallConstant(b.simplify()))
    return std::pair{a, *m};
  if (auto m = smallConstant(a.simplify()))
    return std::pair{b, *m};
  return std::nullopt;
}

// With one constant operand the three operations are exact on integers:
// x | c == x + c - (x & c) and x ^ c == x + c - 2 (x & c).
std::optional<z3::expr> Arith::bitAnd(const z3::expr &a,
                                      const z3::expr &b) const {
  if (mode_ == OverflowMode::Wrap)
    return a & b;
  auto operands = withConstantMask(a, b);
  if (!operands)
    return disjointBits(a, b) ? std::optional(context_.int_val(0)) : std::nullopt;
  return maskedBits(operands->first, operands->second);
}

std::optional<z3::expr> Arith::bitOr(const z3::expr &a, const z3::expr &b) const {
  if (mode_ == OverflowMode::Wrap)
    return a | b;
  auto operands = withConstantMask(a, b);
  if (!operands)
    return disjointBits(a, b) ? std::optional(a + b) : std::nullopt;
  auto [x, c] = *operands;
  return x + context_.int_val(c) - maskedBits(x, c);
}

std::optional<z3::expr> Arith::bitXor(const z3::expr &a,
                                      const z3::expr &b) const {
  if (mode_ == OverflowMode::Wrap)
    return a ^ b;
  auto operands = withConstantMask(a, b);
  if (!operands)
    return disjointBits(a, b) ? std::optional(a + b) : std::nullopt;
  auto [x, c] = *operands;
  return x + context_.int_val(c) - 2 * maskedBits(x, c);
}

int Arith::topPowerOfTwoExponent(IntType t) {
  int width = static_cast<int>(t.width);
  return std::min(t.is_signed ? width - 2 : width - 1, 62);
}

z3::expr Arith::powerOfTwoOrZero(const z3::expr &value, IntType t) const {
  z3::expr any = value == constant(0, t);
  for (int e = 0; e <= topPowerOfTwoExponent(t); ++e)
    any = any || value == constant(int64_t(1) << e, t);
  return any;
}

z3::expr Arith::fromBool(const z3::expr &condition, IntType type) const {
  return z3::ite(condition, constant(1, type), constant(0, type));
}

z3::expr Arith::toBool(const z3::expr &value) const {
  if (value.is_bool())
    return value;
  if (value.is_bv())
    return value != context_.bv_val(0, value.get_sort().bv_size());
  return value != context_.int_val(0);
}

std::optional<int64_t> Arith::numeral(const z3::expr &value, bool is_signed) {
  if (value.is_bv()) {
    uint64_t bits = 0;
    if (!value.is_numeral_u64(bits))
      return std::nullopt;
    unsigned width = value.get_sort().bv_size();
    if (is_signed && width < 64 && (bits >> (width - 1)) & 1)
      bits |= ~uint64_t(0) << width;
    return static_cast<int64_t>(bits);
  }
  int64_t v = 0;
  if (value.is_numeral_i64(v))
    return v;
  return std::nullopt;
}

} // namespace gpurace::analyzer
