// Bitwise operations with a constant operand on mathematical integers must
// agree with two's-complement C arithmetic for every operand, negative ones
// included: the kernel model relies on them for `t ^ 16`, `t & ~31`,
// `t | 1` indices, and a wrong value here is an impossible witness.
#include "analyzer/model/Arith.h"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

namespace gpurace::analyzer {
namespace {

using BitOp = std::optional<z3::expr> (Arith::*)(const z3::expr &,
                                                 const z3::expr &) const;

// The value of `term` with `symbol` set to `value`, folded to a number.
std::optional<int64_t> valueAt(const z3::expr &term, const z3::expr &symbol, int64_t value) {
  z3::expr_vector from(term.ctx()), to(term.ctx());
  from.push_back(symbol);
  to.push_back(term.ctx().int_val(value));
  return Arith::numeral(z3::expr(term).substitute(from, to).simplify(), true);
}

void expectExactWithConstant(BitOp op, const std::function<int64_t(int64_t, int64_t)> &c_op,
                             const char *name) {
  z3::context context;
  Arith arith(context, OverflowMode::Math);
  z3::expr x = context.int_const("x");
  for (int64_t mask : {0L, 1L, 5L, 16L, 31L, 48L, 0x55L, 0xF0F0L, -1L, -32L, -17L}) {
    for (bool constant_first : {false, true}) {
      std::optional<z3::expr> term =
          constant_first ? (arith.*op)(context.int_val(mask), x)
                         : (arith.*op)(x, context.int_val(mask));
      ASSERT_TRUE(term.has_value()) << name << " with constant " << mask;
      for (int64_t value = -70; value <= 70; ++value) {
        std::optional<int64_t> got = valueAt(*term, x, value);
        ASSERT_TRUE(got.has_value());
        EXPECT_EQ(*got, c_op(value, mask))
            << value << " " << name << " " << mask;
      }
    }
  }
}

TEST(Arith, AndWithAConstantIsExactOnIntegers) {
  expectExactWithConstant(&Arith::bitAnd, [](int64_t a, int64_t b) { return a & b; }, "&");
}

TEST(Arith, OrWithAConstantIsExactOnIntegers) {
  expectExactWithConstant(&Arith::bitOr, [](int64_t a, int64_t b) { return a | b; }, "|");
}

TEST(Arith, XorWithAConstantIsExactOnIntegers) {
  expectExactWithConstant(&Arith::bitXor, [](int64_t a, int64_t b) { return a ^ b; }, "^");
}

TEST(Arith, BitwiseOfTwoUnknownsIsLeftToTheCaller) {
  z3::context context;
  Arith arith(context, OverflowMode::Math);
  z3::expr x = context.int_const("x"), y = context.int_const("y");
  EXPECT_FALSE(arith.bitXor(x, y).has_value());
  EXPECT_FALSE(arith.bitAnd(x, y).has_value());
}

// The swizzles of index bits: a shifted value combined with a bit field
// below the shift (`(x << 1) | (y >> 4 & 1)`, `(x & ~31) | (y & 15)`); the C
// side doubles instead of shifting, as a left shift of a negative value is
// undefined in C++.
TEST(Arith, BitwiseOfOperandsWithDisjointBitsIsExact) {
  z3::context context;
  Arith arith(context, OverflowMode::Math);
  z3::expr x = context.int_const("x"), y = context.int_const("y");
  auto constant = [&](int64_t v) { return context.int_val(v); };
  z3::expr shifted = *arith.shiftLeft(x, constant(1));
  z3::expr low_bit = *arith.bitAnd(*arith.shiftRight(y, constant(4), true), constant(1));
  z3::expr high_part = *arith.bitAnd(x, constant(-32));
  z3::expr low_field = *arith.bitAnd(y, constant(15));
  struct Case {
    std::optional<z3::expr> term;
    std::function<int64_t(int64_t, int64_t)> c_op;
    const char *name;
  };
  std::vector<Case> cases = {
      {arith.bitOr(shifted, low_bit), [](int64_t a, int64_t b) { return (a * 2) | (b >> 4 & 1); },
       "(x << 1) | (y >> 4 & 1)"},
      {arith.bitXor(low_bit, shifted), [](int64_t a, int64_t b) { return (b >> 4 & 1) ^ (a * 2); },
       "(y >> 4 & 1) ^ (x << 1)"},
      {arith.bitOr(high_part, low_field), [](int64_t a, int64_t b) { return (a & ~31) | (b & 15); },
       "(x & ~31) | (y & 15)"},
      {arith.bitAnd(high_part, low_field), [](int64_t a, int64_t b) { return (a & ~31) & (b & 15); },
       "(x & ~31) & (y & 15)"},
  };
  for (const Case &c : cases) {
    ASSERT_TRUE(c.term.has_value()) << c.name;
    for (int64_t a = -40; a <= 40; a += 3)
      for (int64_t b = -40; b <= 40; ++b) {
        z3::expr_vector from(context), to(context);
        from.push_back(x);
        from.push_back(y);
        to.push_back(constant(a));
        to.push_back(constant(b));
        auto got = Arith::numeral(z3::expr(*c.term).substitute(from, to).simplify(), true);
        ASSERT_TRUE(got.has_value());
        EXPECT_EQ(*got, c.c_op(a, b)) << c.name << " at x=" << a << " y=" << b;
      }
  }
  // A two-bit field against one clear bit may meet: left to the caller.
  EXPECT_FALSE(arith.bitOr(shifted, *arith.bitAnd(y, constant(3))).has_value());
}

// A bank-conflict-free thread position: the thread's low four bits moved
// up two places, its next two bits moved down to the bottom, and the rest
// kept (`(t & ~63) | ((t & 15) << 2) | ((t & 48) >> 4)`). A field shifted
// left fills exactly the bits above the shift, and one shifted right
// keeps only the bits its mask left above the shift.
TEST(Arith, BitFieldsMovedByShiftsCombineExactly) {
  z3::context context;
  Arith arith(context, OverflowMode::Math);
  z3::expr t = context.int_const("t");
  auto constant = [&](int64_t v) { return context.int_val(v); };
  z3::expr kept = *arith.bitAnd(t, constant(~int64_t{63}));
  z3::expr moved_up = *arith.shiftLeft(*arith.bitAnd(t, constant(15)), constant(2));
  z3::expr moved_down = *arith.shiftRight(*arith.bitAnd(t, constant(48)), constant(4), false);
  std::optional<z3::expr> low = arith.bitOr(moved_up, moved_down);
  ASSERT_TRUE(low.has_value()) << "(t & 15) << 2 | (t & 48) >> 4";
  std::optional<z3::expr> position = arith.bitOr(kept, *low);
  ASSERT_TRUE(position.has_value()) << "t & ~63 | ...";
  for (int64_t value = 0; value <= 300; ++value) {
    std::optional<int64_t> got = valueAt(*position, t, value);
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(*got, (value & ~63) | ((value & 15) << 2) | ((value & 48) >> 4)) << "t=" << value;
  }
  // Shifted up by one place less, the four-bit field reaches bit 4, where
  // a field of bits 4 and 5 moved down by three lands: left to the caller.
  z3::expr short_move = *arith.shiftLeft(*arith.bitAnd(t, constant(15)), constant(1));
  z3::expr overlapping = *arith.shiftRight(*arith.bitAnd(t, constant(48)), constant(3), false);
  EXPECT_FALSE(arith.bitOr(short_move, overlapping).has_value());
}

// A shift right of a multiple of the divisor divides it out: no division
// is left for the solver to expand.
TEST(Arith, ShiftRightOfAMultipleLeavesNoDivision) {
  z3::context context;
  Arith arith(context, OverflowMode::Math);
  z3::expr x = context.int_const("x"), y = context.int_const("y");
  auto constant = [&](int64_t v) { return context.int_val(v); };
  std::optional<z3::expr> field = arith.shiftRight(x * constant(16), constant(4), false);
  ASSERT_TRUE(field.has_value());
  EXPECT_TRUE(z3::eq(*field, x)) << *field;
  std::optional<z3::expr> sum =
      arith.shiftRight(x * constant(64) + y * constant(16), constant(4), false);
  ASSERT_TRUE(sum.has_value());
  EXPECT_TRUE(z3::eq(*sum, (x * constant(4) + y).simplify())) << *sum;
  // 8 * x + y is not a multiple of 16: the division stays.
  std::optional<z3::expr> rest =
      arith.shiftRight(x * constant(8) + y, constant(4), false);
  ASSERT_TRUE(rest.has_value());
  EXPECT_EQ(rest->decl().decl_kind(), Z3_OP_IDIV) << *rest;
}

TEST(Arith, PowerOfTwoOrZeroHoldsExactlyForThem) {
  z3::context context;
  Arith arith(context, OverflowMode::Math);
  z3::expr x = context.int_const("x");
  z3::expr holds = arith.powerOfTwoOrZero(x, kUInt32);
  for (int64_t value : {0L, 1L, 2L, 3L, 6L, 64L, 96L, 1024L, 1L << 31, (1L << 31) + 1}) {
    z3::expr_vector from(context), to(context);
    from.push_back(x);
    to.push_back(context.int_val(value));
    bool expected = (value & (value - 1)) == 0;
    EXPECT_EQ(holds.substitute(from, to).simplify().is_true(), expected) << value;
  }
}

} // namespace
} // namespace gpurace::analyzer
