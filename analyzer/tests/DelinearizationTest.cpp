// The delinearization lemmas must be theorems (they may never change a
// verdict) and must make a row-major overlap query easy for the solver.
#include "analyzer/check/Delinearization.h"

#include <gtest/gtest.h>

#include <random>

namespace gpurace::analyzer {
namespace {

struct TwoThreads {
  z3::context context;
  // Launch-wide: the row width. Thread-local: row and column.
  z3::expr width = context.int_const("width");
  z3::expr row = context.int_const("row"), column = context.int_const("column");
  z3::expr row1 = context.int_const("row@1"), column1 = context.int_const("column@1");
  z3::expr row2 = context.int_const("row@2"), column2 = context.int_const("column@2");

  std::function<z3::expr(const z3::expr &)> rename(int thread) {
    return [this, thread](const z3::expr &e) {
      z3::expr_vector from(context), to(context);
      from.push_back(row);
      from.push_back(column);
      to.push_back(thread == 1 ? row1 : row2);
      to.push_back(thread == 1 ? column1 : column2);
      z3::expr copy = e;
      return copy.substitute(from, to);
    };
  }

  std::vector<z3::expr> lemmas(const z3::expr &offset_a, const z3::expr &offset_b,
                               int64_t size) {
    auto launch_wide = [this](const z3::expr &e) {
      return !(z3::eq(e, row) || z3::eq(e, column));
    };
    return delinearizationLemmas({offset_a, rename(1), size}, {offset_b, rename(2), size},
                                 launch_wide);
  }
};

TEST(Delinearization, LemmasHoldForEveryAssignment) {
  TwoThreads t;
  z3::expr four = t.context.int_val(4);
  // Byte offsets of float accesses: (row * width + column) * 4, and the
  // transposed (column * width + row) * 4.
  std::vector<z3::expr> lemmas = t.lemmas((t.row * t.width + t.column) * four,
                                          (t.column * t.width + t.row) * four, 4);
  ASSERT_FALSE(lemmas.empty());
  std::mt19937 random(7);
  std::uniform_int_distribution<int> value(-9, 9);
  for (int trial = 0; trial < 2000; ++trial) {
    z3::expr_vector from(t.context), to(t.context);
    for (const z3::expr &symbol : {t.width, t.row1, t.column1, t.row2, t.column2}) {
      from.push_back(symbol);
      to.push_back(t.context.int_val(value(random)));
    }
    for (z3::expr lemma : lemmas)
      ASSERT_TRUE(lemma.substitute(from, to).simplify().is_true())
          << lemma << " under " << to;
  }
}

TEST(Delinearization, DistinctCellsOfARowMajorGridAreProvedApart) {
  TwoThreads t;
  z3::expr four = t.context.int_val(4), zero = t.context.int_val(0);
  z3::expr a = (t.row * t.width + t.column) * four;
  z3::expr b = (t.row * t.width + t.column) * four;
  z3::solver solver(t.context);
  z3::params effort(t.context);
  effort.set("rlimit", 200000u);
  solver.set(effort);
  z3::expr start_a = t.rename(1)(a), start_b = t.rename(2)(b);
  solver.add(start_a < start_b + four && start_b < start_a + four);
  solver.add(zero <= t.column1 && t.column1 < t.width && zero <= t.column2 &&
             t.column2 < t.width);
  solver.add(t.row1 != t.row2 || t.column1 != t.column2);
  for (const z3::expr &lemma : t.lemmas(a, b, 4))
    solver.add(lemma);
  EXPECT_EQ(solver.check(), z3::unsat);
}

TEST(Delinearization, NothingIsSaidWhenTheElementIsWiderThanTheCommonFactor) {
  TwoThreads t;
  // Byte offsets row * width + column with 4-byte accesses: overlapping
  // ranges do not imply equal offsets.
  EXPECT_TRUE(t.lemmas(t.row * t.width + t.column, t.row * t.width + t.column, 4).empty());
}

} // namespace
} // namespace gpurace::analyzer
