//===- BuilderScaling.cpp - variables a loop scales by a constant factor ----===//
//
// A loop that multiplies or divides a variable by a constant f once per
// iteration holds it at start * f^k or start / f^k in iteration k. The
// model keeps such variables as over-approximated values with bounds of
// their own; these facts tie all of one loop's variables of one factor to
// a shared f^k per iteration, which relates them to each other: a scan's
// up-sweep halves `d` while it doubles `offset`, so `offset` leaves above
// the width `d` started from, and the down-sweep that halves `offset` while
// `d` doubles below that width never takes it to 0.
//
//===----------------------------------------------------------------------===//
#include "analyzer/model/ModelBuilder.h"

#include <clang/AST/Decl.h>

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

namespace gpurace::analyzer::builder {

namespace {

// Whether `fact` holds whatever its symbols are. The facts asked about
// relate two entry values (`n / 2` against `n`, or constants), which a
// small effort decides.
bool valid(const z3::expr &fact) {
  if (fact.simplify().is_true())
    return true;
  z3::solver solver(fact.ctx());
  z3::params params(fact.ctx());
  params.set("rlimit", 20000u);
  solver.set(params);
  solver.add(!fact);
  return solver.check() == z3::unsat;
}

} // namespace

Builder::LoopScaling Builder::scaling(const LoopShape &shape, const State &entry) {
  LoopScaling out;
  std::vector<ScalingFact> &facts = out.facts;
  // Wrap-around arithmetic may take a multiplied value back to 0.
  if (arith_.mode() == OverflowMode::Wrap || iterations_.empty())
    return out;
  const z3::expr &k = iterations_.back();
  z3::expr zero = zero64(), one = arith_.constant(1, kInt64), two = arith_.constant(2, kInt64);
  auto powerOf = [&](int64_t factor) {
    for (const auto &[known, power] : out.powers)
      if (known == factor)
        return power;
    z3::expr power = uniformInLoops("pow" + std::to_string(factor), kInt64, iterations_);
    z3::expr f = arith_.constant(factor, kInt64);
    facts.push_back({{}, one <= power && (k == zero) == (power == one) &&
                             z3::implies(one <= k, f <= power)});
    if ((factor & (factor - 1)) == 0)
      model_.powers_of_two.push_back(power);
    out.powers.emplace_back(factor, power);
    return power;
  };
  // The variable's value at the loop's entry and at the head, as 64-bit
  // integers. Only a variable the loop over-approximates has a value of
  // its own at the head; one still holding its entry value is not
  // described.
  auto entryAndHead = [&](const clang::VarDecl &var)
      -> std::optional<std::pair<z3::expr, z3::expr>> {
    std::string key = localKey(var);
    auto start = entry.env.find(key);
    auto now = state_.env.find(key);
    if (start == entry.env.end() || now == state_.env.end() ||
        start->second.kind != Value::Kind::Int || now->second.kind != Value::Kind::Int ||
        z3::eq(start->second.expr, now->second.expr))
      return std::nullopt;
    IntType t = intTypeOf(var.getType());
    return std::pair{arith_.convert(asInt(start->second, t), t, kInt64),
                     arith_.convert(asInt(now->second, t), t, kInt64)};
  };
  std::vector<ScalingStep> scaled = scalingSteps(shape, ast_);
  for (const ScalingStep &step : scaled) {
    auto values = entryAndHead(*step.var);
    if (!values)
      continue;
    const auto &[from, value] = *values;
    std::string key = localKey(*step.var);
    if (step.grows) {
      // start * f^k is linear only for a constant start.
      if (Arith::numeral(from.simplify(), true))
        facts.push_back({{key}, value == from * powerOf(step.factor)});
      continue;
    }
    // Dividing a nonnegative start by f k times is dividing it by f^k once:
    // the result is at least m exactly when start is at least m * f^k.
    z3::expr power = powerOf(step.factor);
    z3::expr at_least = (one <= value) == (power <= from) && (two <= value) == (two * power <= from);
    facts.push_back({{key}, z3::implies(zero <= from, at_least)});
  }
  // `d += 1; ... d <<= 1`: d + offset grows by the factor alone, which is
  // linear in the shared power for a constant start.
  for (const AffineScalingStep &step : affineScalingSteps(shape, ast_)) {
    auto values = entryAndHead(*step.var);
    if (!values)
      continue;
    z3::expr offset = arith_.constant(step.offset, kInt64);
    z3::expr from = (values->first + offset).simplify();
    if (Arith::numeral(from, true))
      facts.push_back({{localKey(*step.var)}, values->second + offset == from * powerOf(step.factor)});
  }
  // `old = x, x /= f`: x is old / f at every head where it is at the entry
  // (an odd-sized tree reduction's `old_i % 2` knows the element its last
  // pair left out).
  for (const LaggingCopy &copy : laggingCopies(shape, scaled)) {
    auto copied = entryAndHead(*copy.copy);
    auto source = entryAndHead(*copy.source.var);
    if (!copied || !source)
      continue;
    z3::expr f = arith_.constant(copy.source.factor, kInt64);
    auto follows = [&](const z3::expr &old, const z3::expr &now) {
      return copy.source.grows ? now == old * f
                               : z3::implies(zero <= old, f * now <= old && old < f * now + f);
    };
    if (valid(follows(copied->first, source->first)))
      facts.push_back(
          {{localKey(*copy.copy), localKey(*copy.source.var)}, follows(copied->second, source->second)});
  }
  return out;
}

std::vector<z3::expr> Builder::scalingAtExit(const LoopScaling &scaling,
                                             const std::set<std::string> &kept,
                                             const z3::expr &k, const z3::expr &exit_k) {
  z3::expr_vector from(ctx()), to(ctx());
  from.push_back(k);
  to.push_back(exit_k);
  std::vector<z3::expr> facts;
  for (const ScalingFact &fact : scaling.facts)
    if (std::all_of(fact.about.begin(), fact.about.end(),
                    [&](const std::string &key) { return kept.count(key) > 0; }))
      facts.push_back(z3::expr(fact.fact).substitute(from, to));
  // A thread in its last iteration holds f^(exit_k - 1): the exit's power
  // is f times its own (thread 0 writing after an up-sweep meets only
  // what the last step's threads wrote, and in that step d is 1).
  z3::expr one = arith_.constant(1, kInt64);
  for (const auto &[factor, power] : scaling.powers) {
    z3::expr at_exit = z3::expr(power).substitute(from, to);
    z3::expr f = arith_.constant(factor, kInt64);
    if ((factor & (factor - 1)) == 0)
      model_.powers_of_two.push_back(at_exit);
    facts.push_back(z3::implies(k < exit_k, f * power <= at_exit) &&
                    z3::implies(k + one == exit_k, at_exit == f * power));
  }
  return facts;
}

} // namespace gpurace::analyzer::builder
