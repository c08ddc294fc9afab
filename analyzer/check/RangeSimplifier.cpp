#include "analyzer/check/RangeSimplifier.h"

#include <algorithm>
#include <vector>

namespace gpurace::analyzer {

namespace {

using Wide = __int128;
constexpr Wide kLimit = Wide(1) << 62;

std::optional<int64_t> narrow(Wide v) {
  if (v <= -kLimit || v >= kLimit)
    return std::nullopt;
  return static_cast<int64_t>(v);
}

// Floor division, as Z3's div is for a positive divisor.
int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

} // namespace

void RangeSimplifier::bound(const z3::expr &symbol, int64_t low, int64_t high) {
  bounds_[symbol.id()] = Range{low, high};
  done_.clear();
}

z3::expr RangeSimplifier::simplify(const z3::expr &term) { return visit(term).term; }

RangeSimplifier::Rewritten RangeSimplifier::visit(const z3::expr &term) {
  auto it = done_.find(term.id());
  if (it != done_.end())
    return it->second.second;
  Rewritten out = rebuild(term);
  // A term the bounds fix is that number: `threadIdx.y` of a block one
  // thread high is 0, and `blockDim.x * threadIdx.y` with it, which keeps
  // a product of an unknown size and a coordinate out of the query.
  if (out.term.is_int() && !out.term.is_numeral() && out.range.low && out.range.high &&
      *out.range.low == *out.range.high)
    out.term = context_.int_val(*out.range.low);
  done_.emplace(term.id(), std::pair{term, out});
  return out;
}

RangeSimplifier::Rewritten RangeSimplifier::rebuild(const z3::expr &term) {
  if (!term.is_app())
    return {term, {}};
  if (term.is_int() && term.is_numeral()) {
    int64_t v = 0;
    if (term.is_numeral_i64(v) && narrow(v))
      return {term, {v, v}};
    return {term, {}};
  }
  Z3_decl_kind kind = term.decl().decl_kind();
  if (kind == Z3_OP_UNINTERPRETED && term.num_args() == 0) {
    auto b = bounds_.find(term.id());
    return {term, b == bounds_.end() ? Range{} : b->second};
  }
  std::vector<Rewritten> args;
  z3::expr_vector new_args(context_);
  bool changed = false;
  for (unsigned i = 0; i < term.num_args(); ++i) {
    args.push_back(visit(term.arg(i)));
    changed |= !z3::eq(args.back().term, term.arg(i));
    new_args.push_back(args.back().term);
  }
  z3::expr same = changed ? term.decl()(new_args) : term;
  if (!term.is_int())
    return {same, {}};

  auto combine = [&](auto op) {
    Range r = args[0].range;
    for (size_t i = 1; i < args.size(); ++i)
      r = op(r, args[i].range);
    return Rewritten{same, r};
  };
  auto add = [](Range a, Range b) {
    Range r;
    if (a.low && b.low)
      r.low = narrow(Wide(*a.low) + *b.low);
    if (a.high && b.high)
      r.high = narrow(Wide(*a.high) + *b.high);
    return r;
  };
  auto negate = [](Range a) {
    return Range{a.high ? std::optional<int64_t>(-*a.high) : std::nullopt,
                 a.low ? std::optional<int64_t>(-*a.low) : std::nullopt};
  };
  auto multiply = [](Range a, Range b) {
    auto zero = [](const Range &r) { return r.low == 0 && r.high == 0; };
    if (zero(a) || zero(b))
      return Range{0, 0};
    if (!a.low || !a.high || !b.low || !b.high)
      return Range{};
    Wide c[] = {Wide(*a.low) * *b.low, Wide(*a.low) * *b.high, Wide(*a.high) * *b.low,
                Wide(*a.high) * *b.high};
    return Range{narrow(*std::min_element(c, c + 4)), narrow(*std::max_element(c, c + 4))};
  };
  switch (kind) {
  case Z3_OP_ADD:
    return combine(add);
  case Z3_OP_SUB:
    return combine([&](Range a, Range b) { return add(a, negate(b)); });
  case Z3_OP_UMINUS:
    return {same, negate(args[0].range)};
  case Z3_OP_MUL:
    return combine(multiply);
  case Z3_OP_ITE: {
    Range a = args[1].range, b = args[2].range;
    Range r;
    if (a.low && b.low)
      r.low = std::min(*a.low, *b.low);
    if (a.high && b.high)
      r.high = std::max(*a.high, *b.high);
    return {same, r};
  }
  case Z3_OP_IDIV:
  case Z3_OP_MOD: {
    int64_t divisor = 0;
    if (!args[1].term.is_numeral_i64(divisor) || divisor <= 0)
      return {same, {}};
    return divideOrRemainder(same, args[0], divisor);
  }
  default:
    return {same, {}};
  }
}

RangeSimplifier::Rewritten
RangeSimplifier::divideOrRemainder(const z3::expr &term, const Rewritten &dividend,
                                   int64_t divisor) {
  bool is_div = term.decl().decl_kind() == Z3_OP_IDIV;
  const Range &r = dividend.range;
  if (!r.low || !r.high) {
    if (is_div)
      return {term, {}};
    return {term, {0, divisor - 1}};
  }
  int64_t first = floorDiv(*r.low, divisor), last = floorDiv(*r.high, divisor);
  if (last - first >= kMaxCases)
    return {term, is_div ? Range{first, last} : Range{0, divisor - 1}};
  // The quotient as a chain of cases, the last one taken without a test.
  // The products stay within the dividend's range, below 2^62.
  z3::expr quotient = context_.int_val(last);
  for (int64_t q = last - 1; q >= first; --q)
    quotient = z3::ite(dividend.term < context_.int_val((q + 1) * divisor),
                       context_.int_val(q), quotient);
  if (is_div)
    return {quotient, {first, last}};
  z3::expr remainder = first == last && first == 0
                           ? dividend.term
                           : dividend.term - context_.int_val(divisor) * quotient;
  Range range{0, divisor - 1};
  if (first == last)
    range = Range{*r.low - first * divisor, *r.high - first * divisor};
  return {remainder, range};
}

} // namespace gpurace::analyzer
