// Bitwise operations with a constant operand on mathematical integers must
// agree with two's-complement C arithmetic for every operand, negative ones
// included: the kernel model relies on them for `t ^ 16`, `t & ~31`,
// `t | 1` indices, and a wrong value here is an impossible witness.
#include "analyzer/model/Arith.h"

#include <gtest/gtest.h>

#include <functional>

namespace gpurace::analyzer {
namespace {

using BitOp = std::optional<z3::expr> (Arith::*)(const z3::expr &,
                                                 const z3::expr &) const;

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
        z3::expr_vector from(context), to(context);
        from.push_back(x);
        to.push_back(context.int_val(value));
        auto got = Arith::numeral(term->substitute(from, to).simplify(), true);
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
