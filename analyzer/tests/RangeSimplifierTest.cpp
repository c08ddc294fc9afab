// Division and remainder by constants over a bounded thread index must be
// rewritten without changing their value anywhere in the bounds, and left
// to the solver where the range is unknown or spans many quotients.
#include "analyzer/check/RangeSimplifier.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace gpurace::analyzer {
namespace {

bool mentionsDivision(const z3::expr &e) {
  if (!e.is_app())
    return false;
  Z3_decl_kind kind = e.decl().decl_kind();
  if (kind == Z3_OP_IDIV || kind == Z3_OP_MOD)
    return true;
  for (unsigned i = 0; i < e.num_args(); ++i)
    if (mentionsDivision(e.arg(i)))
      return true;
  return false;
}

int64_t valueAt(const z3::expr &term, const z3::expr &symbol, int64_t value) {
  z3::expr_vector from(term.ctx()), to(term.ctx());
  from.push_back(symbol);
  to.push_back(term.ctx().int_val(value));
  int64_t out = 0;
  EXPECT_TRUE(z3::expr(term).substitute(from, to).simplify().is_numeral_i64(out));
  return out;
}

TEST(RangeSimplifier, DivisionsOverAFewQuotientsBecomeCasesWithTheSameValues) {
  z3::context context;
  z3::expr tid = context.int_const("tid");
  RangeSimplifier ranges(context);
  ranges.bound(tid, 0, 31);
  struct Case {
    z3::expr term;
    std::function<int64_t(int64_t)> c_value;
    const char *name;
  };
  std::vector<Case> cases = {
      {z3::mod(z3::expr(tid / 16), 2), [](int64_t t) { return t / 16 % 2; }, "tid / 16 % 2"},
      {z3::mod(2 * tid + tid / 16, 32), [](int64_t t) { return (2 * t + t / 16) % 32; },
       "(2 tid + tid / 16) % 32"},
      {tid / 32 * 32, [](int64_t t) { return t / 32 * 32; }, "tid / 32 * 32"},
      {z3::mod(tid - 40, 64), [](int64_t t) { return ((t - 40) % 64 + 64) % 64; },
       "(tid - 40) mod 64"},
  };
  for (const Case &c : cases) {
    z3::expr simple = ranges.simplify(c.term);
    EXPECT_FALSE(mentionsDivision(simple)) << c.name << ": " << simple;
    for (int64_t t = 0; t <= 31; ++t)
      EXPECT_EQ(valueAt(simple, tid, t), c.c_value(t)) << c.name << " at tid=" << t;
  }
}

TEST(RangeSimplifier, LeavesUnboundedAndWideDivisionsToTheSolver) {
  z3::context context;
  z3::expr tid = context.int_const("tid"), n = context.int_const("n");
  RangeSimplifier ranges(context);
  ranges.bound(tid, 0, 1023);
  EXPECT_TRUE(mentionsDivision(ranges.simplify(z3::mod(n, 32))));
  EXPECT_TRUE(mentionsDivision(ranges.simplify(tid / 32)));
  EXPECT_TRUE(mentionsDivision(ranges.simplify(tid / n)));
  // One quotient over the whole range: no division and no case left.
  z3::expr whole = ranges.simplify(tid / 1024 + z3::mod(tid, 2048));
  EXPECT_FALSE(mentionsDivision(whole));
  EXPECT_EQ(valueAt(whole, tid, 700), 700);
}

TEST(RangeSimplifier, ACoordinateItsBoundsFixIsThatNumberAndAProductWithItVanishes) {
  // A block one thread high: threadIdx.y is 0, so the linear rank
  // tid.x + blockDim.x * tid.y is tid.x even where blockDim.x is unknown,
  // and the query keeps no product of two unknowns.
  z3::context context;
  z3::expr x = context.int_const("tid.x"), y = context.int_const("tid.y");
  z3::expr width = context.int_const("blockDim.x");
  RangeSimplifier ranges(context);
  ranges.bound(x, 0, 511);
  ranges.bound(y, 0, 0);
  z3::expr rank = ranges.simplify(x + width * y);
  EXPECT_TRUE(z3::eq(rank.simplify(), x)) << rank;
  // Only a range of one value is replaced.
  ranges.bound(y, 0, 1);
  z3::expr wider = ranges.simplify(x + width * y);
  EXPECT_FALSE(z3::eq(wider.simplify(), x)) << wider;
}

} // namespace
} // namespace gpurace::analyzer
