#include "analyzer/check/Delinearization.h"
#include "analyzer/model/TermWalk.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <numeric>
#include <optional>
#include <set>

namespace gpurace::analyzer {

namespace {

// A monomial is a sorted multiset of atom ids; the empty one is 1.
using Monomial = std::vector<unsigned>;
using Polynomial = std::map<Monomial, int64_t>;

constexpr size_t kMaxTerms = 64;
constexpr size_t kMaxLemmas = 16;
constexpr int kMaxDepth = 3;
constexpr int64_t kMaxCoefficient = int64_t(1) << 40;

std::optional<int64_t> checked(__int128 value) {
  if (value > kMaxCoefficient || value < -kMaxCoefficient)
    return std::nullopt;
  return static_cast<int64_t>(value);
}

bool addInto(Polynomial &sum, const Monomial &m, int64_t c) {
  auto v = checked(static_cast<__int128>(sum[m]) + c);
  if (!v)
    return false;
  if (*v == 0)
    sum.erase(m);
  else
    sum[m] = *v;
  return true;
}

class PolynomialReader {
public:
  // With `share`, terms the threads may share are read as one factor.
  PolynomialReader(z3::context &context, const DelinearizationTerms &terms, bool share)
      : context_(context), terms_(terms), share_(share) {}

  std::optional<Polynomial> read(const z3::expr &e, const OffsetSide &side) {
    int64_t value = 0;
    if (e.is_numeral_i64(value))
      return Polynomial{{Monomial{}, value}};
    if (e.is_app()) {
      switch (e.decl().decl_kind()) {
      case Z3_OP_ADD:
      case Z3_OP_SUB: {
        std::optional<Polynomial> sum = read(e.arg(0), side);
        for (unsigned i = 1; sum && i < e.num_args(); ++i) {
          std::optional<Polynomial> next = read(e.arg(i), side);
          if (!next)
            return std::nullopt;
          int64_t sign = e.decl().decl_kind() == Z3_OP_SUB ? -1 : 1;
          for (const auto &[m, c] : *next)
            if (!addInto(*sum, m, sign * c))
              return std::nullopt;
        }
        return sum;
      }
      case Z3_OP_UMINUS: {
        std::optional<Polynomial> inner = read(e.arg(0), side);
        if (inner)
          for (auto &[m, c] : *inner)
            c = -c;
        return inner;
      }
      case Z3_OP_MUL: {
        std::optional<Polynomial> product = Polynomial{{Monomial{}, 1}};
        for (unsigned i = 0; product && i < e.num_args(); ++i) {
          std::optional<Polynomial> factor = read(e.arg(i), side);
          if (!factor)
            return std::nullopt;
          product = multiply(*product, *factor);
        }
        return product;
      }
      default:
        break;
      }
    }
    return Polynomial{{Monomial{atom(e, side)}, 1}};
  }

  z3::expr expr(const Polynomial &p) const {
    z3::expr sum = context_.int_val(0);
    for (const auto &[m, c] : p) {
      z3::expr term = context_.int_val(c);
      for (unsigned id : m)
        term = term * atoms_[id];
      sum = sum + term;
    }
    return sum.simplify();
  }

  bool launchWide(unsigned id) const { return launch_wide_[id]; }
  // Whether an atom is a bit field: a remainder or quotient by a constant
  // (`t % 16`, `t / 16`), which the solver's integer arithmetic bounds only
  // through a case split of its own.
  bool bitField(unsigned id) const {
    const z3::expr &e = atoms_[id];
    if (!e.is_app() || e.num_args() != 2 || !e.arg(1).is_numeral())
      return false;
    Z3_decl_kind kind = e.decl().decl_kind();
    return kind == Z3_OP_MOD || kind == Z3_OP_IDIV;
  }
  // That the shared factors' renamings agree.
  const std::vector<z3::expr> &premises() const { return premises_; }

private:
  // The model's term `e` as an atom, named after its renaming: launch-wide
  // atoms rename to themselves, so both sides share them. A term the
  // threads may share, met again on the other side, is the same atom
  // under the premise that its two renamings are equal.
  unsigned atom(const z3::expr &e, const OffsetSide &side) {
    z3::expr renamed = side.for_thread(e);
    for (unsigned i = 0; i < atoms_.size(); ++i)
      if (z3::eq(atoms_[i], renamed))
        return i;
    bool launch_wide = terms_.is_launch_wide(e);
    if (!launch_wide && share_ && terms_.may_share && terms_.may_share(e))
      for (unsigned i = 0; i < atoms_.size(); ++i)
        if (sides_[i] != &side && z3::eq(unrenamed_[i], e)) {
          premises_.push_back(atoms_[i] == renamed);
          launch_wide_[i] = true;
          return i;
        }
    atoms_.push_back(renamed);
    unrenamed_.push_back(e);
    sides_.push_back(&side);
    launch_wide_.push_back(launch_wide);
    return static_cast<unsigned>(atoms_.size() - 1);
  }

  static std::optional<Polynomial> multiply(const Polynomial &a, const Polynomial &b) {
    Polynomial out;
    for (const auto &[ma, ca] : a) {
      for (const auto &[mb, cb] : b) {
        Monomial m = ma;
        m.insert(m.end(), mb.begin(), mb.end());
        std::sort(m.begin(), m.end());
        auto c = checked(static_cast<__int128>(ca) * cb);
        if (!c || !addInto(out, m, *c) || out.size() > kMaxTerms)
          return std::nullopt;
      }
    }
    return out;
  }

  z3::context &context_;
  const DelinearizationTerms &terms_;
  bool share_;
  std::vector<z3::expr> atoms_, unrenamed_;
  std::vector<const OffsetSide *> sides_;
  std::vector<bool> launch_wide_;
  std::vector<z3::expr> premises_;
};

// `offset` with `split.value` replaced by `by` except inside the split's
// quotient `value / divisor`, which stays the atom it is.
z3::expr substituteOutsideQuotient(const z3::expr &offset, const ValueSplit &split,
                                   const z3::expr &by) {
  z3::context &context = offset.ctx();
  z3::expr held = context.constant("quotient!held", split.quotient.get_sort());
  z3::expr_vector quotient(context), placeholder(context), value(context), replacement(context);
  quotient.push_back(split.quotient);
  placeholder.push_back(held);
  value.push_back(split.value);
  replacement.push_back(by);
  z3::expr copy = offset;
  return copy.substitute(quotient, placeholder)
      .substitute(value, replacement)
      .substitute(placeholder, quotient);
}

// A launch-wide value that an offset reads divided by a constant
// (`r * (stride / 2)`, where another reads `row * stride`), split into that
// quotient and nothing else where the launch's facts make the division
// exact: a pitch the host keeps even makes the two readings one factor.
// The split's premise is the exactness.
std::vector<ValueSplit> exactDivisionSplits(const OffsetSide &a, const OffsetSide &b,
                                            const DelinearizationTerms &terms) {
  std::vector<ValueSplit> splits;
  if (!terms.divides_exactly)
    return splits;
  std::set<unsigned> seen;
  auto collect = [&](const z3::expr &e) {
    int64_t divisor = 0;
    if (e.decl().decl_kind() == Z3_OP_IDIV && e.arg(1).is_numeral_i64(divisor) && divisor > 1 &&
        !e.arg(0).is_numeral() && terms.is_launch_wide(e.arg(0)) && seen.insert(e.id()).second &&
        terms.divides_exactly(e.arg(0), e.arg(1))) {
      z3::expr value = e.arg(0), zero = e.ctx().int_val(0);
      splits.push_back({value, e, e.arg(1), zero, z3::mod(value, e.arg(1)) == zero});
    }
  };
  forEachSubterm(a.offset, collect);
  forEachSubterm(b.offset, collect);
  return splits;
}

// `side`'s offset with the value of each split whose remainder it uses
// replaced by quotient * divisor + remainder (`2 * x - (x & (s - 1))`, not
// `x` where only another mask of it is used); the renamed splits it relied
// on, and each stated where it holds.
z3::expr splitOffset(const OffsetSide &side, const std::vector<ValueSplit> &splits,
                     std::vector<z3::expr> &premises, std::vector<z3::expr> &stated) {
  z3::expr offset = side.offset;
  for (const ValueSplit &split : splits) {
    // A division split applies wherever the value is read whole.
    bool exact = split.remainder.is_numeral();
    if (!exact && !mentions(offset, split.remainder))
      continue;
    z3::expr_vector from(offset.ctx()), to(offset.ctx());
    from.push_back(split.value);
    to.push_back(split.quotient * split.divisor + split.remainder);
    z3::expr replaced = exact ? substituteOutsideQuotient(offset, split, to[0])
                              : offset.substitute(from, to);
    if (z3::eq(replaced, offset))
      continue;
    premises.push_back(side.for_thread(split.value == to[0]));
    stated.push_back(side.for_thread(z3::implies(split.holds, split.value == to[0])));
    offset = replaced;
  }
  return offset;
}

// Whether `m` holds every atom of `divisor` (as multisets), and what is
// left when they are taken out.
std::optional<Monomial> divide(const Monomial &m, const Monomial &divisor) {
  Monomial rest = m;
  for (unsigned id : divisor) {
    auto it = std::find(rest.begin(), rest.end(), id);
    if (it == rest.end())
      return std::nullopt;
    rest.erase(it);
  }
  return rest;
}

// p as divisor * Q + R: the terms divisor divides, divided, and the rest.
std::pair<Polynomial, Polynomial> splitBy(const Polynomial &p, const Monomial &divisor) {
  Polynomial quotient, remainder;
  for (const auto &[m, c] : p) {
    if (std::optional<Monomial> rest = divide(m, divisor))
      quotient[*rest] = c;
    else
      remainder[m] = c;
  }
  return {quotient, remainder};
}

int64_t floorDiv(int64_t n, int64_t d) { return n / d - (n % d != 0 && (n < 0) != (d < 0)); }

class LemmaWriter {
public:
  LemmaWriter(const PolynomialReader &reader, const z3::expr &premise)
      : reader_(reader), premise_(premise) {}

  // Lemmas about `p == 0`: first each split of p itself, launch-wide
  // factors before constant ones, then those of the parts it leaves. The
  // lemmas are capped, and a split by the row stride of `y * s + x` is
  // what decides the overlap; the cascade of constant factors under it
  // (`32 * by * s + 2 * bx + ...` by 2, 4, 8, ...) must not use the cap up
  // first.
  void equation(const Polynomial &p, int depth) {
    if (depth > kMaxDepth || p.size() < 2)
      return;
    std::vector<Polynomial> parts;
    for (const Monomial &divisor : launchWideFactors(p)) {
      if (lemmas_.size() >= kMaxLemmas)
        return;
      auto [quotient, remainder] = splitBy(p, divisor);
      if (quotient.empty())
        continue;
      z3::expr s = reader_.expr({{divisor, 1}});
      z3::expr q = reader_.expr(quotient);
      z3::expr zero = s.ctx().int_val(0);
      parts.push_back(quotient);
      if (remainder.empty()) {
        // s * Q == 0 with s nonzero: the factor cancels (`offset * (2t + 2)`
        // against `offset * (2t' + 1)` in one step of a scan).
        lemmas_.push_back(z3::implies(premise_ && reader_.expr(p) == zero && s != zero, q == zero));
        continue;
      }
      z3::expr r = reader_.expr(remainder);
      z3::expr split = reader_.expr(p) == zero &&
                       ((s > zero && r < s && -s < r) || (s < zero && r < -s && s < r));
      lemmas_.push_back(z3::implies(premise_ && split, q == zero && r == zero));
      parts.push_back(remainder);
    }
    // A linear equation of plain values needs no help: the solver's
    // integer arithmetic decides it, and lemmas there only slow it. One
    // made only of bit fields packed by constant factors (`(t % 16) * 4 +
    // t / 16 + 64 * bin` against another thread's) takes it a case split
    // per pair, which the lemmas give at once.
    bool nonlinear =
        std::any_of(p.begin(), p.end(), [](const auto &term) { return term.first.size() > 1; });
    bool packed = std::all_of(p.begin(), p.end(), [&](const auto &term) {
      return std::all_of(term.first.begin(), term.first.end(),
                         [&](unsigned id) { return reader_.bitField(id); });
    });
    if (nonlinear || packed)
      constantFactors(p, parts);
    for (const Polynomial &part : parts)
      equation(part, depth + 1);
  }

  // Lemmas about `lo <= p <= hi`, p with no constant term: what byte
  // ranges that overlap leave when several multiples of the varying terms'
  // common factor fit (`y * pitch + 4 * x` against another thread's, 4
  // bytes each: the difference lies in [-3, 3]). A launch-wide factor s
  // splits p into s * Q + R; where hi - |s| < R < lo + |s|, s * Q lies
  // strictly between -|s| and |s|, so Q == 0 and R keeps p's bounds. A
  // constant factor of every term divides the bounds.
  void bounded(const Polynomial &p, int64_t lo, int64_t hi, int depth) {
    if (depth > kMaxDepth || p.size() < 2 ||
        std::none_of(p.begin(), p.end(), [](const auto &term) { return term.first.size() > 1; }))
      return;
    int64_t g = 0;
    for (const auto &[m, c] : p)
      g = std::gcd(g, std::llabs(c));
    if (g > 1) {
      commonFactor(p, g, lo, hi, depth);
      return;
    }
    // The outermost stride of a row-major offset divides the most terms
    // (`pitch` in `z * pitch * h + y * pitch + 4 * x`): only the factors
    // that divide as many as any, since every lemma costs the solver.
    std::vector<Monomial> factors = launchWideFactors(p);
    auto divides = [&p](const Monomial &divisor) {
      return std::count_if(p.begin(), p.end(),
                           [&](const auto &term) { return divide(term.first, divisor).has_value(); });
    };
    long most = 0;
    for (const Monomial &divisor : factors)
      most = std::max(most, static_cast<long>(divides(divisor)));
    for (const Monomial &divisor : factors)
      if (divides(divisor) == most)
        splitBounded(p, lo, hi, divisor, depth);
  }

  std::vector<z3::expr> take() { return std::move(lemmas_); }

private:
  // The constant factors of `p`'s terms: `8 * (b * n + i) + j` against the
  // same of another thread, with 0 <= j < 8, leaves `b * n + i` equal for
  // both, which the launch-wide factor n then splits in turn. For each
  // coefficient c > 1, the terms that c divides are c * Q and the others R:
  // c * Q + R == 0 and |R| < c implies Q == 0 and R == 0. Each Q joins
  // `parts`, to be split in turn.
  void constantFactors(const Polynomial &p, std::vector<Polynomial> &parts) {
    std::set<int64_t> divisors;
    for (const auto &[m, c] : p)
      if (!m.empty() && std::llabs(c) > 1)
        divisors.insert(std::llabs(c));
    for (int64_t divisor : divisors) {
      if (lemmas_.size() >= kMaxLemmas)
        return;
      Polynomial quotient, remainder;
      for (const auto &[m, c] : p) {
        if (c % divisor == 0 && !m.empty())
          quotient[m] = c / divisor;
        else
          remainder[m] = c;
      }
      if (quotient.empty() || remainder.empty() ||
          std::all_of(remainder.begin(), remainder.end(),
                      [](const auto &term) { return term.first.empty(); }))
        continue;
      z3::context &context = premise_.ctx();
      z3::expr s = context.int_val(divisor);
      z3::expr r = reader_.expr(remainder);
      z3::expr split = reader_.expr(p) == context.int_val(0) && r < s && -s < r;
      lemmas_.push_back(z3::implies(premise_ && split,
                                    reader_.expr(quotient) == context.int_val(0) &&
                                        r == context.int_val(0)));
      parts.push_back(quotient);
    }
  }

  z3::expr within(const Polynomial &p, int64_t lo, int64_t hi) const {
    z3::expr value = reader_.expr(p);
    z3::context &context = premise_.ctx();
    return context.int_val(lo) <= value && value <= context.int_val(hi);
  }

  // p == g * P': P' lies in p's bounds divided by g, an equation where one
  // multiple fits.
  void commonFactor(const Polynomial &p, int64_t g, int64_t lo, int64_t hi, int depth) {
    int64_t low = -floorDiv(-lo, g), high = floorDiv(hi, g);
    Polynomial reduced;
    for (const auto &[m, c] : p)
      reduced[m] = c / g;
    if (low > high) {
      lemmas_.push_back(z3::implies(premise_, !within(p, lo, hi)));
      return;
    }
    lemmas_.push_back(z3::implies(premise_ && within(p, lo, hi), within(reduced, low, high)));
    if (low < high) {
      bounded(reduced, low, high, depth + 1);
      return;
    }
    if (low != 0)
      reduced[Monomial{}] = -low;
    equation(reduced, depth + 1);
  }

  // The lemma of one launch-wide factor of `p`.
  void splitBounded(const Polynomial &p, int64_t lo, int64_t hi, const Monomial &divisor,
                    int depth) {
    if (lemmas_.size() >= kMaxLemmas)
      return;
    auto [quotient, remainder] = splitBy(p, divisor);
    if (quotient.empty())
      return;
    z3::context &context = premise_.ctx();
    z3::expr zero = context.int_val(0), low = context.int_val(lo), high = context.int_val(hi);
    z3::expr s = reader_.expr({{divisor, 1}});
    z3::expr q = reader_.expr(quotient);
    if (remainder.empty()) {
      z3::expr small = (s > zero && high < s && -s < low) || (s < zero && high < -s && s < low);
      lemmas_.push_back(z3::implies(premise_ && within(p, lo, hi) && small, q == zero));
      equation(quotient, depth + 1);
      return;
    }
    z3::expr r = reader_.expr(remainder);
    z3::expr small = (s > zero && high - s < r && r < low + s) ||
                     (s < zero && high + s < r && r < low - s);
    lemmas_.push_back(z3::implies(premise_ && within(p, lo, hi) && small,
                                  q == zero && within(remainder, lo, hi)));
    equation(quotient, depth + 1);
    bounded(remainder, lo, hi, depth + 1);
  }

  // Each launch-wide atom that multiplies something, and the whole
  // launch-wide part of each term with several (blockDim.x * gridDim.x).
  std::vector<Monomial> launchWideFactors(const Polynomial &p) const {
    std::set<Monomial> factors;
    for (const auto &[m, c] : p) {
      if (m.size() < 2)
        continue;
      Monomial wide;
      for (unsigned id : m)
        if (reader_.launchWide(id))
          wide.push_back(id);
      if (wide.size() == m.size())
        continue; // a launch-wide term is a constant of the launch
      for (unsigned id : wide)
        factors.insert(Monomial{id});
      if (wide.size() > 1)
        factors.insert(wide);
    }
    return {factors.begin(), factors.end()};
  }

  const PolynomialReader &reader_;
  z3::expr premise_;
  std::vector<z3::expr> lemmas_;
};

// `difference` (thread a's start minus thread b's) as the one equation D -
// d == 0 that overlapping ranges leave, with the common factor of its
// varying terms divided out; none when several multiples fit.
std::optional<Polynomial> oneMultiple(const Polynomial &difference, int64_t size_a,
                                      int64_t size_b) {
  int64_t g = 0, constant = 0;
  for (const auto &[m, c] : difference) {
    if (m.empty())
      constant = c;
    else
      g = std::gcd(g, std::llabs(c));
  }
  if (g == 0)
    return std::nullopt;
  int64_t lowest = -floorDiv(size_a + constant - 1, g);
  int64_t highest = floorDiv(size_b - constant - 1, g);
  if (lowest > highest)
    return Polynomial{{Monomial{}, 1}}; // no multiple fits: 1 == 0
  if (lowest != highest)
    return std::nullopt;
  Polynomial out;
  for (const auto &[m, c] : difference)
    if (!m.empty())
      out[m] = c / g;
  if (lowest != 0)
    out[Monomial{}] = -lowest;
  return out;
}

// Where several multiples of the common factor fit (rows of a pitch in
// bytes, elements of 4): the difference's varying terms D lie in the
// bounds that the ranges' overlap leaves, -size_a - c < D < size_b - c.
std::vector<z3::expr> boundedLemmas(const Polynomial &difference, int64_t size_a,
                                    int64_t size_b, const PolynomialReader &reader,
                                    const z3::expr &premise, const z3::expr &overlap,
                                    std::vector<z3::expr> &stated) {
  Polynomial varying = difference;
  int64_t constant = 0;
  if (auto c = varying.find(Monomial{}); c != varying.end()) {
    constant = c->second;
    varying.erase(c);
  }
  if (varying.empty())
    return {};
  int64_t lo = 1 - size_a - constant, hi = size_b - constant - 1;
  LemmaWriter writer(reader, premise);
  writer.bounded(varying, lo, hi, 0);
  std::vector<z3::expr> lemmas = writer.take();
  if (lemmas.empty())
    return {};
  z3::context &context = premise.ctx();
  z3::expr d = reader.expr(varying);
  lemmas.insert(lemmas.begin(), z3::implies(premise && overlap, context.int_val(lo) <= d &&
                                                                    d <= context.int_val(hi)));
  lemmas.insert(lemmas.end(), stated.begin(), stated.end());
  return lemmas;
}

// The lemmas of one reading; `shared` says whether it read a term of both
// threads as one factor.
std::vector<z3::expr> lemmasOfReading(const OffsetSide &a, const OffsetSide &b,
                                      const DelinearizationTerms &terms,
                                      const std::vector<ValueSplit> &splits, bool share,
                                      bool &shared) {
  z3::context &context = a.offset.ctx();
  PolynomialReader reader(context, terms, share);
  std::vector<z3::expr> premises, stated;
  std::optional<Polynomial> pa =
      reader.read(splitOffset(a, splits, premises, stated).simplify(), a);
  std::optional<Polynomial> pb =
      reader.read(splitOffset(b, splits, premises, stated).simplify(), b);
  shared = !reader.premises().empty();
  if (!pa || !pb)
    return {};
  Polynomial difference = *pa;
  for (const auto &[m, c] : *pb)
    if (!addInto(difference, m, -c))
      return {};
  // The difference is g * D + c, with g the common factor of its terms
  // that vary. Byte ranges of the sizes given overlap where -size_a < g * D
  // + c < size_b; where that interval holds one multiple of g (elements of
  // g bytes, a field at offset c of one of them), D is that multiple.
  std::optional<Polynomial> normal = oneMultiple(difference, a.size_bytes, b.size_bytes);
  z3::expr start_a = a.for_thread(a.offset), start_b = b.for_thread(b.offset);
  z3::expr overlap = start_a < start_b + context.int_val(b.size_bytes) &&
                     start_b < start_a + context.int_val(a.size_bytes);
  z3::expr premise = context.bool_val(true);
  for (const z3::expr &p : reader.premises())
    premises.push_back(p);
  for (const z3::expr &p : premises)
    premise = premise && p;
  if (!normal)
    return boundedLemmas(difference, a.size_bytes, b.size_bytes, reader, premise, overlap,
                         stated);
  difference = *normal;
  if (difference.size() == 1 && difference.begin()->first.empty()) {
    // `8 * t + 4` against `8 * t'`, 4 bytes each: the ranges never meet.
    stated.push_back(z3::implies(premise, !overlap));
    return stated;
  }
  LemmaWriter writer(reader, premise);
  writer.equation(difference, 0);
  std::vector<z3::expr> lemmas = writer.take();
  if (lemmas.empty())
    return {};
  lemmas.insert(lemmas.begin(), z3::implies(premise && overlap,
                                            reader.expr(difference) == context.int_val(0)));
  lemmas.insert(lemmas.end(), stated.begin(), stated.end());
  return lemmas;
}

// The values `v` that the offsets of both sides read through both
// `v / d` and `v % d` with `d` launch-wide (`i / width` and `i % width`
// as row and column): (v, d) pairs, each once.
std::vector<std::pair<z3::expr, z3::expr>> quotientAndRemainderValues(
    const OffsetSide &a, const OffsetSide &b, const DelinearizationTerms &terms) {
  std::vector<std::pair<z3::expr, z3::expr>> quotients, remainders;
  auto collect = [&](const z3::expr &e) {
    Z3_decl_kind kind = e.decl().decl_kind();
    if ((kind == Z3_OP_IDIV || kind == Z3_OP_MOD) && terms.is_launch_wide(e.arg(1)))
      (kind == Z3_OP_IDIV ? quotients : remainders).emplace_back(e.arg(0), e.arg(1));
  };
  forEachSubterm(a.offset, collect);
  forEachSubterm(b.offset, collect);
  auto same = [](const std::pair<z3::expr, z3::expr> &x, const std::pair<z3::expr, z3::expr> &y) {
    return z3::eq(x.first, y.first) && z3::eq(x.second, y.second);
  };
  std::vector<std::pair<z3::expr, z3::expr>> both;
  for (const auto &q : quotients)
    if (std::any_of(remainders.begin(), remainders.end(), [&](const auto &r) { return same(q, r); }) &&
        std::none_of(both.begin(), both.end(), [&](const auto &v) { return same(q, v); }))
      both.push_back(q);
  return both;
}

constexpr int kMaxValueDepth = 2;

std::vector<z3::expr> lemmasAt(const OffsetSide &a, const OffsetSide &b,
                               const DelinearizationTerms &terms, int value_depth);

// A value read as a row and a column (`v / d`, `v % d`) is the same for
// both threads when both parts are: a theorem once d != 0. That equation
// is delinearized in turn, so that a grid-stride block index `blockIdx.x +
// k * gridDim.x` mapped onto a 2D grid of tiles gives back its block and
// iteration.
void addSplitValueLemmas(const OffsetSide &a, const OffsetSide &b,
                         const DelinearizationTerms &terms, int value_depth,
                         std::vector<z3::expr> &lemmas) {
  if (value_depth >= kMaxValueDepth)
    return;
  for (const auto &[value, divisor] : quotientAndRemainderValues(a, b, terms)) {
    z3::expr zero = value.ctx().int_val(0);
    auto same = [&](const z3::expr &e) { return a.for_thread(e) == b.for_thread(e); };
    lemmas.push_back(z3::implies(
        divisor != zero && same(value / divisor) && same(z3::mod(value, divisor)), same(value)));
    std::vector<z3::expr> more = lemmasAt(OffsetSide{value, a.for_thread, 1},
                                          OffsetSide{value, b.for_thread, 1}, terms,
                                          value_depth + 1);
    lemmas.insert(lemmas.end(), more.begin(), more.end());
  }
}

std::vector<z3::expr> lemmasAt(const OffsetSide &a, const OffsetSide &b,
                               const DelinearizationTerms &terms, int value_depth) {
  if (!a.offset.is_int() || !b.offset.is_int())
    return {};
  // Each thread's terms apart (`y * w + x` against `y' * w + x'`: rows may
  // differ), then, where a shared term makes a difference, as one factor
  // (`2 * q * s + r` in one step of a loop over s).
  bool shared = false;
  std::vector<z3::expr> lemmas = lemmasOfReading(a, b, terms, terms.splits, false, shared);
  if (terms.may_share) {
    std::vector<z3::expr> more = lemmasOfReading(a, b, terms, terms.splits, true, shared);
    if (shared)
      lemmas.insert(lemmas.end(), more.begin(), more.end());
  }
  // Then with exact divisions read as products, where there are any.
  std::vector<ValueSplit> exact = exactDivisionSplits(a, b, terms);
  if (!exact.empty()) {
    exact.insert(exact.begin(), terms.splits.begin(), terms.splits.end());
    std::vector<z3::expr> more = lemmasOfReading(a, b, terms, exact, false, shared);
    lemmas.insert(lemmas.end(), more.begin(), more.end());
  }
  addSplitValueLemmas(a, b, terms, value_depth, lemmas);
  return lemmas;
}

} // namespace

std::vector<z3::expr> delinearizationLemmas(const OffsetSide &a, const OffsetSide &b,
                                            const DelinearizationTerms &terms) {
  return lemmasAt(a, b, terms, 0);
}

std::vector<RowSplit> rowSplits(const z3::expr &offset,
                                const std::function<bool(const z3::expr &)> &is_launch_wide) {
  if (!offset.is_int())
    return {};
  DelinearizationTerms terms;
  terms.is_launch_wide = is_launch_wide;
  PolynomialReader reader(offset.ctx(), terms, false);
  OffsetSide side{offset, [](const z3::expr &e) { return e; }, 1};
  std::optional<Polynomial> p = reader.read(offset, side);
  if (!p)
    return {};
  p->erase(Monomial{});
  std::set<unsigned> strides;
  for (const auto &[m, c] : *p)
    if (m.size() > 1 && !std::all_of(m.begin(), m.end(),
                                     [&](unsigned id) { return reader.launchWide(id); }))
      for (unsigned id : m)
        if (reader.launchWide(id))
          strides.insert(id);
  std::vector<RowSplit> splits;
  for (unsigned id : strides) {
    auto [quotient, rest] = splitBy(*p, Monomial{id});
    if (!rest.empty())
      splits.push_back({reader.expr({{Monomial{id}, 1}}), reader.expr(rest)});
  }
  return splits;
}

} // namespace gpurace::analyzer
