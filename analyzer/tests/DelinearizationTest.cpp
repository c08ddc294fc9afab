// The delinearization lemmas must be theorems (they may never change a
// verdict) and must make a row-major overlap query easy for the solver.
#include "analyzer/check/Delinearization.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <tuple>
#include <utility>

namespace gpurace::analyzer {
namespace {

struct TwoThreads {
  z3::context context;
  // Launch-wide: the row width. Thread-local: row and column.
  z3::expr width = context.int_const("width");
  z3::expr row = context.int_const("row"), column = context.int_const("column");
  z3::expr row1 = context.int_const("row@1"), column1 = context.int_const("column@1");
  z3::expr row2 = context.int_const("row@2"), column2 = context.int_const("column@2");
  // Thread-local too: a slot within the cell (a constant count of them).
  z3::expr lane = context.int_const("lane");
  z3::expr lane1 = context.int_const("lane@1"), lane2 = context.int_const("lane@2");

  std::function<z3::expr(const z3::expr &)> rename(int thread) {
    return [this, thread](const z3::expr &e) {
      z3::expr_vector from(context), to(context);
      from.push_back(row);
      from.push_back(column);
      from.push_back(lane);
      to.push_back(thread == 1 ? row1 : row2);
      to.push_back(thread == 1 ? column1 : column2);
      to.push_back(thread == 1 ? lane1 : lane2);
      z3::expr copy = e;
      return copy.substitute(from, to);
    };
  }

  std::vector<z3::expr> lemmas(const z3::expr &offset_a, const z3::expr &offset_b,
                               int64_t size_a, int64_t size_b,
                               bool width_is_even = false) {
    DelinearizationTerms terms;
    terms.is_launch_wide = [this](const z3::expr &e) {
      return !(z3::eq(e, row) || z3::eq(e, column) || z3::eq(e, lane));
    };
    if (width_is_even)
      terms.divides_exactly = [this](const z3::expr &value, const z3::expr &divisor) {
        return z3::eq(value, width) && divisor.get_numeral_int64() == 2;
      };
    return delinearizationLemmas({offset_a, rename(1), size_a}, {offset_b, rename(2), size_b},
                                 terms);
  }
  std::vector<z3::expr> lemmas(const z3::expr &offset_a, const z3::expr &offset_b,
                               int64_t size) {
    return lemmas(offset_a, offset_b, size, size);
  }

  // Every lemma is true under random values of every symbol.
  void expectTheorems(const std::vector<z3::expr> &lemmas, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> value(-9, 9);
    for (int trial = 0; trial < 2000; ++trial) {
      z3::expr_vector from(context), to(context);
      for (const z3::expr &symbol : {width, row1, column1, row2, column2, lane1, lane2}) {
        from.push_back(symbol);
        to.push_back(context.int_val(value(random)));
      }
      for (z3::expr lemma : lemmas)
        ASSERT_TRUE(lemma.substitute(from, to).simplify().is_true())
            << lemma << " under " << to;
    }
  }

  // Whether the lemmas let the solver prove, within a small effort, that
  // accesses of distinct cells (columns within the row) never overlap.
  z3::check_result distinctCellsOverlap(const z3::expr &a, const z3::expr &b, int64_t size_a,
                                        int64_t size_b) {
    z3::solver solver(context);
    z3::params effort(context);
    effort.set("rlimit", 200000u);
    solver.set(effort);
    z3::expr zero = context.int_val(0);
    z3::expr start_a = rename(1)(a), start_b = rename(2)(b);
    solver.add(start_a < start_b + context.int_val(size_b) &&
               start_b < start_a + context.int_val(size_a));
    solver.add(zero <= column1 && column1 < width && zero <= column2 && column2 < width);
    solver.add(row1 != row2 || column1 != column2);
    for (const z3::expr &lemma : lemmas(a, b, size_a, size_b))
      solver.add(lemma);
    return solver.check();
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
  t.expectTheorems(lemmas, 7);
}

TEST(Delinearization, DistinctCellsOfARowMajorGridAreProvedApart) {
  TwoThreads t;
  z3::expr cell = (t.row * t.width + t.column) * t.context.int_val(4);
  EXPECT_EQ(t.distinctCellsOverlap(cell, cell, 4, 4), z3::unsat);
}

// Eight slots per cell, `out[(row * width + column) * 8 + lane]`: the
// constant factor 8 splits off the slot, then width splits the cell
// (PairCheck.SlotsOfEachPointOfABatchAreProvedApart decides such pairs).
TEST(Delinearization, ConstantFactorLemmasHoldForEveryAssignment) {
  TwoThreads t;
  z3::context &c = t.context;
  z3::expr slot = ((t.row * t.width + t.column) * c.int_val(8) + t.lane) * c.int_val(4);
  std::vector<z3::expr> lemmas = t.lemmas(slot, slot, 4);
  // The overlap, the slot (8), the cell (width) and the row under the
  // slot's split (width again).
  ASSERT_GE(lemmas.size(), 3u);
  t.expectTheorems(lemmas, 11);
}

TEST(Delinearization, NothingIsSaidOfALinearDifference) {
  TwoThreads t;
  // Byte offsets 2 * row + column with 4-byte accesses: the solver's
  // linear arithmetic decides it, and lemmas would only slow it.
  z3::expr offset = t.context.int_val(2) * t.row + t.column;
  EXPECT_TRUE(t.lemmas(offset, offset, 4).empty());
}

// A per-thread byte column whose position packs the thread's bit fields,
// `(t % 16) * 4 + t / 16` (t < 64), then a row per bin, a field of a
// loaded word (`(word / 4) % 64 * 64`): the difference is linear, but in
// bit fields the solver bounds only through a case split per pair. The
// constant factors 64 and 4 split it at once, and with t's fields equal,
// t is: the pair is decided within a small effort, and each lemma is a
// theorem.
TEST(Delinearization, BitFieldsPackedByConstantFactorsAreSplit) {
  TwoThreads t;
  z3::context &c = t.context;
  z3::expr thread = t.column, bin = z3::mod(t.lane / c.int_val(4), c.int_val(64));
  auto position = [&](const z3::expr &x) {
    return z3::mod(x, c.int_val(16)) * c.int_val(4) + x / c.int_val(16);
  };
  z3::expr offset = position(thread) + bin * c.int_val(64);
  std::vector<z3::expr> lemmas = t.lemmas(offset, offset, 1);
  ASSERT_GE(lemmas.size(), 3u) << "the overlap, the factor 64 and the factor 4";
  t.expectTheorems(lemmas, 13);

  z3::solver solver(c);
  z3::params effort(c);
  effort.set("rlimit", 200000u);
  solver.set(effort);
  z3::expr zero = c.int_val(0);
  for (const z3::expr &x : {t.column1, t.column2})
    solver.add(zero <= x && x < c.int_val(64));
  solver.add(t.rename(1)(offset) == t.rename(2)(offset) && t.column1 != t.column2);
  for (const z3::expr &lemma : lemmas)
    solver.add(lemma);
  EXPECT_EQ(solver.check(), z3::unsat);
}

// Rows a pitch in bytes apart, 4-byte elements: overlapping ranges leave
// the difference in [-3, 3], several multiples of the common factor 1.
// Where the columns' bytes stay within the pitch, the rows are equal, and
// then the columns.
TEST(Delinearization, BoundedLemmasHoldForEveryAssignment) {
  TwoThreads t;
  z3::context &c = t.context;
  z3::expr element = t.row * t.width + t.column * c.int_val(4);
  std::vector<z3::expr> lemmas = t.lemmas(element, element, 4);
  ASSERT_FALSE(lemmas.empty());
  t.expectTheorems(lemmas, 13);
  // A 2-byte field at byte 2 of another thread's element, and slices of
  // rows (`(lane * width + row) * width`).
  t.expectTheorems(t.lemmas(element, element + c.int_val(2), 4, 2), 17);
  z3::expr slice = (t.lane * t.width + t.row) * t.width + t.column * c.int_val(4);
  t.expectTheorems(t.lemmas(slice, slice, 4), 19);
}

TEST(Delinearization, ElementsOfRowsAPitchInBytesApartAreProvedApart) {
  TwoThreads t;
  z3::context &c = t.context;
  z3::expr four = c.int_val(4), zero = c.int_val(0);
  z3::expr element = t.row * t.width + t.column * four;
  z3::solver solver(c);
  z3::params effort(c);
  effort.set("rlimit", 200000u);
  solver.set(effort);
  z3::expr start_a = t.rename(1)(element), start_b = t.rename(2)(element);
  solver.add(start_a < start_b + four && start_b < start_a + four);
  // The pitch holds a row: column * 4 + 4 <= width.
  for (const z3::expr &column : {t.column1, t.column2})
    solver.add(zero <= column && column * four + four <= t.width);
  solver.add(t.row1 != t.row2 || t.column1 != t.column2);
  for (const z3::expr &lemma : t.lemmas(element, element, 4))
    solver.add(lemma);
  EXPECT_EQ(solver.check(), z3::unsat);
}

// A bitonic step: thread t compares pos = 2 * t - (t & (s - 1)) with
// pos + s, where s is the loop's power-of-two stride. The model splits t
// as q * s + r (r = t & (s - 1)) case by case; s is a loop value, renamed
// per thread, and equal for two threads in the same step.
struct BitonicStep {
  z3::context context;
  z3::expr t = context.int_const("t"), q = context.int_const("q"), r = context.int_const("r");
  z3::expr s = context.int_const("s");
  // 0 for the thread's own element, 1 for its partner's.
  z3::expr c = context.int_const("c");
  z3::expr four = context.int_val(4);
  z3::expr pos = (context.int_val(2) * t - r) * four;
  z3::expr partner = (context.int_val(2) * t - r + s) * four;
  z3::expr either = (context.int_val(2) * t - r + c * s) * four;

  z3::expr on(const z3::expr &e, int thread) {
    z3::expr_vector from(context), to(context);
    for (const char *name : {"t", "q", "r", "s", "c"}) {
      from.push_back(context.int_const(name));
      to.push_back(context.int_const((std::string(name) + "@" + std::to_string(thread)).c_str()));
    }
    z3::expr copy = e;
    return copy.substitute(from, to);
  }

  // The mask s - 1 is all ones or a run of low bits.
  z3::expr holds() {
    z3::expr mask = s - context.int_val(1), any = mask == context.int_val(-1);
    for (int e = 0; e <= 33; ++e)
      any = any || mask == context.int_val((int64_t(1) << e) - 1);
    return any;
  }

  std::vector<z3::expr> lemmas(const z3::expr &a, const z3::expr &b) {
    DelinearizationTerms terms;
    terms.is_launch_wide = [](const z3::expr &) { return false; };
    terms.may_share = [this](const z3::expr &e) { return z3::eq(e, s); };
    terms.splits.push_back({t, q, s, r, holds()});
    auto rename = [this](int thread) {
      return [this, thread](const z3::expr &e) { return on(e, thread); };
    };
    return delinearizationLemmas({a, rename(1), 4}, {b, rename(2), 4}, terms);
  }
};

TEST(Delinearization, SplitAndSharedStrideLemmasHoldWhereverTheModelsFactsDo) {
  BitonicStep step;
  std::vector<z3::expr> lemmas = step.lemmas(step.pos, step.partner);
  ASSERT_FALSE(lemmas.empty());
  std::mt19937 random(11);
  std::uniform_int_distribution<int> value(-9, 9);
  const int strides[] = {0, 1, 2, 4, 8, 3, 6, -4};
  for (int trial = 0; trial < 2000; ++trial) {
    z3::expr_vector from(step.context), to(step.context);
    for (int thread = 1; thread <= 2; ++thread) {
      // What the model's facts allow: t == q * s + r with 0 <= r < s for a
      // power-of-two s, r == t for s == 0, anything otherwise.
      int64_t s = strides[random() % 8], q = value(random), r = value(random), t = value(random);
      if (s > 0 && (s & (s - 1)) == 0) {
        r = (r % s + s) % s;
        t = q * s + r;
      } else if (s == 0) {
        r = t;
      }
      int64_t values[] = {t, q, r, s};
      const char *names[] = {"t", "q", "r", "s"};
      for (int i = 0; i < 4; ++i) {
        from.push_back(step.on(step.context.int_const(names[i]), thread));
        to.push_back(step.context.int_val(values[i]));
      }
    }
    for (z3::expr lemma : lemmas)
      ASSERT_TRUE(lemma.substitute(from, to).simplify().is_true())
          << lemma << " under " << to;
  }
}

TEST(Delinearization, PairsOfABitonicStepAreProvedApart) {
  BitonicStep step;
  z3::solver solver(step.context);
  z3::params effort(step.context);
  // Without the lemmas the element-or-partner query below runs out of this
  // effort.
  effort.set("rlimit", 100000u);
  solver.set(effort);
  z3::expr zero = step.context.int_val(0);
  for (int thread = 1; thread <= 2; ++thread) {
    z3::expr t = step.on(step.t, thread), q = step.on(step.q, thread);
    z3::expr r = step.on(step.r, thread), s = step.on(step.s, thread);
    solver.add(zero <= t && t < step.context.int_val(512));
    // The model's facts: a case per power of two.
    z3::expr power = s == zero;
    for (int e = 0; e <= 9; ++e) {
      z3::expr n = step.context.int_val(int64_t(1) << e);
      power = power || s == n;
      solver.add(z3::implies(s == n, t == q * n + r && zero <= r && r < n));
    }
    solver.add(power && s != zero);
    z3::expr c = step.on(step.c, thread);
    solver.add(c == zero || c == step.context.int_val(1));
  }
  // Two threads of one step: the same stride, distinct positions.
  solver.add(step.on(step.s, 1) == step.on(step.s, 2));
  solver.add(step.on(step.t, 1) != step.on(step.t, 2));
  for (const auto &[a, b] : {std::pair{step.pos, step.partner}, std::pair{step.pos, step.pos},
                             std::pair{step.either, step.either}}) {
    solver.push();
    z3::expr start_a = step.on(a, 1), start_b = step.on(b, 2);
    solver.add(start_a < start_b + step.four && start_b < start_a + step.four);
    for (const z3::expr &lemma : step.lemmas(a, b))
      solver.add(lemma);
    EXPECT_EQ(solver.check(), z3::unsat) << a << " against " << b;
    solver.pop();
  }
}

TEST(Delinearization, AFieldOfAnElementMeetsOnlyThatElement) {
  TwoThreads t;
  z3::expr four = t.context.int_val(4);
  z3::expr cell = (t.row * t.width + t.column) * four;
  // The whole 4-byte element against its byte at offset 1, and 8-byte
  // records' fields at 0 and 4, which never meet.
  for (const auto &[a, b, size_b] :
       {std::tuple{cell, cell + t.context.int_val(1), 1}, std::tuple{cell * 2, cell * 2 + four, 4}}) {
    std::vector<z3::expr> lemmas = t.lemmas(a, b, 4, size_b);
    ASSERT_FALSE(lemmas.empty()) << b;
    t.expectTheorems(lemmas, 5);
    EXPECT_EQ(t.distinctCellsOverlap(a, b, 4, size_b), z3::unsat) << b;
  }
}

// Blocks walk the tiles of an image: block b takes tile v = b + k * G in
// its iteration k, reads it as column v % n and row v / n, and its thread
// t writes pixel (row, s * column + t) of a row w wide.
struct TileWalk {
  z3::context context;
  z3::expr b = context.int_const("b"), k = context.int_const("k"), t = context.int_const("t");
  z3::expr grid = context.int_const("G"), n = context.int_const("n");
  z3::expr side = context.int_const("s"), width = context.int_const("w");
  z3::expr tile = b + k * grid;
  z3::expr x = side * z3::mod(tile, n) + t;
  z3::expr pixel = (tile / n * width + x) * context.int_val(4);

  z3::expr on(const z3::expr &e, int thread) {
    z3::expr_vector from(context), to(context);
    for (const char *name : {"b", "k", "t"}) {
      from.push_back(context.int_const(name));
      to.push_back(context.int_const((std::string(name) + "@" + std::to_string(thread)).c_str()));
    }
    z3::expr copy = e;
    return copy.substitute(from, to);
  }

  std::vector<z3::expr> lemmas() {
    auto launch_wide = [this](const z3::expr &e) {
      std::vector<z3::expr> pending{e};
      while (!pending.empty()) {
        z3::expr next = pending.back();
        pending.pop_back();
        if (z3::eq(next, b) || z3::eq(next, k) || z3::eq(next, t))
          return false;
        for (unsigned i = 0; next.is_app() && i < next.num_args(); ++i)
          pending.push_back(next.arg(i));
      }
      return true;
    };
    auto rename = [this](int thread) {
      return [this, thread](const z3::expr &e) { return on(e, thread); };
    };
    return delinearizationLemmas({pixel, rename(1), 4}, {pixel, rename(2), 4}, {launch_wide});
  }
};

TEST(Delinearization, TileIndexLemmasHoldForEveryAssignment) {
  TileWalk walk;
  std::vector<z3::expr> lemmas = walk.lemmas();
  ASSERT_FALSE(lemmas.empty());
  std::mt19937 random(13);
  std::uniform_int_distribution<int> value(-6, 6);
  for (int trial = 0; trial < 1000; ++trial) {
    z3::expr_vector from(walk.context), to(walk.context);
    for (const z3::expr &symbol : {walk.grid, walk.n, walk.side, walk.width})
      from.push_back(symbol);
    for (int thread = 1; thread <= 2; ++thread)
      for (const z3::expr &symbol : {walk.b, walk.k, walk.t})
        from.push_back(walk.on(symbol, thread));
    for (unsigned i = 0; i < from.size(); ++i)
      to.push_back(walk.context.int_val(value(random)));
    for (z3::expr lemma : lemmas) {
      z3::expr holds = lemma.substitute(from, to).simplify();
      // x / 0 is any value in the solver's arithmetic: the lemmas claim
      // nothing there, and the model states that no thread divides by 0.
      if (to[1].get_numeral_int() != 0)
        ASSERT_TRUE(holds.is_true()) << lemma << " under " << to;
    }
  }
}

TEST(Delinearization, TilesOfABlockWalkAreProvedApart) {
  TileWalk walk;
  z3::solver solver(walk.context);
  z3::params effort(walk.context);
  // Without the lemmas this query runs out of this effort.
  effort.set("rlimit", 400000u);
  solver.set(effort);
  z3::expr zero = walk.context.int_val(0);
  solver.add(walk.n > zero && walk.grid > zero && walk.side > zero);
  for (int thread = 1; thread <= 2; ++thread) {
    solver.add(zero <= walk.on(walk.b, thread) && walk.on(walk.b, thread) < walk.grid);
    solver.add(zero <= walk.on(walk.k, thread));
    solver.add(zero <= walk.on(walk.t, thread) && walk.on(walk.t, thread) < walk.side);
    solver.add(walk.on(walk.x, thread) < walk.width);
  }
  solver.add(walk.on(walk.b, 1) != walk.on(walk.b, 2) || walk.on(walk.k, 1) != walk.on(walk.k, 2) ||
             walk.on(walk.t, 1) != walk.on(walk.t, 2));
  z3::expr start_a = walk.on(walk.pixel, 1), start_b = walk.on(walk.pixel, 2);
  solver.add(start_a < start_b + walk.context.int_val(4) &&
             start_b < start_a + walk.context.int_val(4));
  solver.push();
  EXPECT_NE(solver.check(), z3::unsat) << "the lemmas should be what decides this query";
  solver.pop();
  for (const z3::expr &lemma : walk.lemmas())
    solver.add(lemma);
  EXPECT_EQ(solver.check(), z3::unsat);
}

// A 16-bit image read as words, `((int *)image)[row * (width / 2) + column]`,
// against a pixel `image[row * width + 2 * column]`: the word index reads
// the launch-wide width halved, the pixel index whole. Where the launch
// makes the width even the two readings are one factor; the lemmas say so
// under that premise, and hold for every assignment, odd widths included.
struct WordsOfPixels {
  TwoThreads t;
  z3::expr two = t.context.int_val(2), four = t.context.int_val(4);
  z3::expr word = (t.row * (t.width / two) + t.column) * four;
  z3::expr pixel = (t.row * t.width + two * t.column) * two;
};

TEST(Delinearization, ExactHalfLemmasHoldForEveryAssignment) {
  WordsOfPixels w;
  std::vector<z3::expr> lemmas = w.t.lemmas(w.word, w.pixel, 4, 2, true);
  ASSERT_FALSE(lemmas.empty());
  w.t.expectTheorems(lemmas, 13);
}

TEST(Delinearization, WordsAndPixelsOfAnEvenWidthAreProvedApart) {
  WordsOfPixels w;
  z3::context &c = w.t.context;
  z3::expr zero = c.int_val(0);
  z3::solver solver(c);
  z3::params effort(c);
  effort.set("rlimit", 200000u);
  solver.set(effort);
  solver.add(z3::mod(w.t.width, w.two) == zero);
  for (const z3::expr &column : {w.t.column1, w.t.column2})
    solver.add(zero <= column && w.two * column + w.two <= w.t.width);
  solver.add(w.t.row1 != w.t.row2 || w.t.column1 != w.t.column2);
  z3::expr start_a = w.t.rename(1)(w.word), start_b = w.t.rename(2)(w.pixel);
  solver.add(start_a < start_b + w.two && start_b < start_a + w.four);
  solver.push();
  EXPECT_NE(solver.check(), z3::unsat) << "the lemmas should be what decides this query";
  solver.pop();
  for (const z3::expr &lemma : w.t.lemmas(w.word, w.pixel, 4, 2, true))
    solver.add(lemma);
  EXPECT_EQ(solver.check(), z3::unsat);
}

// A pixel of a tiled image, `image[row * width + column]` with row = 32 *
// by + 8 * band + r and column = 32 * bx + 2 * (8 * ty + tx) + 1: the
// offset's coefficients (32, 16, 8, 2) give a cascade of constant splits,
// each a lemma, and the lemmas are capped. The split by the width
// is what decides the pair, and it must come first.
struct TiledPixels {
  mutable z3::context context;
  z3::expr width = context.int_const("width");
  std::vector<std::string> names = {"by", "band", "r", "bx", "ty", "tx"};

  z3::expr local(const std::string &name, int thread) const {
    return context.int_const(thread ? (name + "@" + std::to_string(thread)).c_str()
                                    : name.c_str());
  }
  std::function<z3::expr(const z3::expr &)> rename(int thread) const {
    return [this, thread](const z3::expr &e) {
      z3::expr_vector from(e.ctx()), to(e.ctx());
      for (const std::string &name : names) {
        from.push_back(local(name, 0));
        to.push_back(local(name, thread));
      }
      z3::expr copy = e;
      return copy.substitute(from, to);
    };
  }
  z3::expr offset() const {
    auto v = [&](const std::string &name) { return local(name, 0); };
    z3::expr row = 32 * v("by") + 8 * v("band") + v("r");
    z3::expr column = 32 * v("bx") + 2 * (8 * v("ty") + v("tx")) + 1;
    return (row * width + column) * 2;
  }
  std::vector<z3::expr> lemmas() const {
    DelinearizationTerms terms;
    terms.is_launch_wide = [this](const z3::expr &e) { return z3::eq(e, width); };
    return delinearizationLemmas({offset(), rename(1), 2}, {offset(), rename(2), 2}, terms);
  }
};

TEST(Delinearization, TheRowStrideIsSplitBeforeTheConstantFactorsUnderIt) {
  TiledPixels p;
  z3::solver solver(p.context);
  z3::params effort(p.context);
  effort.set("rlimit", 200000u);
  solver.set(effort);
  z3::expr zero = p.context.int_val(0);
  solver.add(p.width >= 512);
  z3::expr differ = p.context.bool_val(false);
  for (int thread = 1; thread <= 2; ++thread) {
    auto bound = [&](const std::string &name, int n) {
      z3::expr v = p.local(name, thread);
      solver.add(zero <= v && v < p.context.int_val(n));
    };
    bound("by", 8), bound("band", 4), bound("r", 8), bound("bx", 16), bound("ty", 2);
    bound("tx", 8);
  }
  for (const std::string &name : p.names)
    differ = differ || p.local(name, 1) != p.local(name, 2);
  solver.add(differ);
  z3::expr start_a = p.rename(1)(p.offset()), start_b = p.rename(2)(p.offset());
  solver.add(start_a < start_b + 2 && start_b < start_a + 2);
  solver.push();
  EXPECT_NE(solver.check(), z3::unsat) << "the lemmas should be what decides this query";
  solver.pop();
  std::vector<z3::expr> lemmas = p.lemmas();
  for (const z3::expr &lemma : lemmas)
    solver.add(lemma);
  EXPECT_EQ(solver.check(), z3::unsat) << lemmas.size() << " lemmas";
}

} // namespace
} // namespace gpurace::analyzer
