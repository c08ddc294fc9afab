//===- BuilderBitwise.cpp - bitwise operations on integers -------------===//
//
// On mathematical integers, `&`, `|` and `^` are exact only with a constant
// operand. Without one, the model keeps what two's complement says of the
// result whatever the bits, and reads the power-of-two idiom `x & (n - 1)`
// (sorting networks, scans, ring buffers) as exactly `x mod n` wherever n
// is a power of two.
//
//===----------------------------------------------------------------------===//
#include "analyzer/model/ModelBuilder.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>

#include <cstdint>

namespace gpurace::analyzer::builder {

void Builder::boundBitwise(clang::BinaryOperatorKind op, const z3::expr &x, const z3::expr &y,
                           const z3::expr &result) {
  // What two's complement says of `x & y`, `x | y`, `x ^ y` whatever the
  // bits: the result of & has no bit its operands lack, | has all of them,
  // and neither carries past the sum.
  z3::expr zero = arith_.constant(0, kInt64);
  auto within = [&](const z3::expr &low, const z3::expr &high) {
    return arith_.lessEq(low, result, true) && arith_.lessEq(result, high, true);
  };
  z3::expr x_natural = arith_.lessEq(zero, x, true), y_natural = arith_.lessEq(zero, y, true);
  if (op == clang::BO_And) {
    model_.thread_facts.push_back(z3::implies(x_natural, within(zero, x)));
    model_.thread_facts.push_back(z3::implies(y_natural, within(zero, y)));
  } else if (op == clang::BO_Or) {
    model_.thread_facts.push_back(z3::implies(
        x_natural && y_natural, within(x, arith_.add(x, y)) && arith_.lessEq(y, result, true)));
  } else if (op == clang::BO_Xor) {
    model_.thread_facts.push_back(
        z3::implies(x_natural && y_natural, within(zero, arith_.add(x, y))));
  }
}

std::optional<bool> Builder::lowBitsMaskOperand(const clang::Expr *at) const {
  auto *op = clang::dyn_cast_or_null<clang::BinaryOperator>(at);
  if (!op || op->getOpcode() != clang::BO_And || arith_.mode() != OverflowMode::Math)
    return std::nullopt;
  auto isOneLess = [&](const clang::Expr *e) {
    auto *sub = clang::dyn_cast<clang::BinaryOperator>(e->IgnoreParenImpCasts());
    clang::Expr::EvalResult one;
    return sub && sub->getOpcode() == clang::BO_Sub && !sub->getRHS()->isValueDependent() &&
           sub->getRHS()->EvaluateAsInt(one, ast_) && one.Val.getInt() == 1;
  };
  if (isOneLess(op->getRHS()))
    return false;
  if (isOneLess(op->getLHS()))
    return true;
  return std::nullopt;
}

void Builder::keepLowBits(const z3::expr &x, const z3::expr &mask, IntType t,
                          const z3::expr &result) {
  // A case per run of low bits the mask may be, each linear: x == q * 2^e
  // + result with 0 <= result < 2^e (no div or mod term for the solver to
  // expand); n == 0 makes the mask all ones.
  z3::expr q = symbols_.freshLocal("quotient", kInt64);
  z3::expr zero = arith_.constant(0, kInt64);
  z3::expr all_ones = arith_.constant(-1, kInt64);
  z3::expr holds = mask == all_ones;
  for (int e = 0; e <= Arith::topPowerOfTwoExponent(t) + 1 && e < 63; ++e) {
    int64_t n = int64_t(1) << e;
    z3::expr low = arith_.constant(n - 1, t);
    holds = holds || mask == low;
    model_.thread_facts.push_back(z3::implies(
        mask == low, x == arith_.add(arith_.mul(q, arith_.constant(n, kInt64)), result) &&
                         arith_.lessEq(zero, result, true) &&
                         arith_.lessEq(result, arith_.constant(n - 1, kInt64), true)));
  }
  model_.thread_facts.push_back(z3::implies(mask == all_ones, result == x));
  model_.low_bits_splits.push_back(
      {x, q, arith_.add(mask, arith_.constant(1, kInt64)), result, holds});
}

void Builder::keepSingleBit(clang::BinaryOperatorKind op, const z3::expr &x,
                            const z3::expr &bit, IntType t, const z3::expr &result) {
  // A case per power of two the operand may be (a sorting network's
  // partner `i ^ j`, its direction `i & k`), each linear: x == q * 2^(e+1)
  // + b * 2^e + r with b the bit of x that `bit` selects; then `x & bit`
  // is b * 2^e, `x | bit` is x + (1 - b) * 2^e and `x ^ bit` is
  // x + 2^e - 2 b 2^e. Floor division makes this two's complement for a
  // negative x too.
  if (op == clang::BO_Xor)
    model_.bit_flips.push_back({x, bit, result});
  z3::expr q = symbols_.freshLocal("above", kInt64);
  z3::expr b = symbols_.freshLocal("bit", kInt64);
  z3::expr r = symbols_.freshLocal("below", kInt64);
  z3::expr zero = arith_.constant(0, kInt64), one = arith_.constant(1, kInt64);
  for (int e = 0; e <= Arith::topPowerOfTwoExponent(t) && e < 62; ++e) {
    z3::expr n = arith_.constant(int64_t(1) << e, kInt64);
    z3::expr selected = arith_.mul(b, n);
    z3::expr exact = op == clang::BO_And  ? result == selected
                     : op == clang::BO_Or ? result == arith_.add(x, arith_.sub(n, selected))
                                          : result == arith_.sub(arith_.add(x, n),
                                                                 arith_.mul(arith_.constant(2, kInt64),
                                                                            selected));
    model_.thread_facts.push_back(z3::implies(
        bit == arith_.constant(int64_t(1) << e, t),
        x == arith_.add(arith_.add(arith_.mul(q, arith_.constant(int64_t(2) << e, kInt64)), selected),
                        r) &&
            (b == zero || b == one) && arith_.lessEq(zero, r, true) &&
            arith_.less(r, n, true) && exact));
  }
}

} // namespace gpurace::analyzer::builder
