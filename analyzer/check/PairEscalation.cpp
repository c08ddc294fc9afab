//===- PairEscalation.cpp - undecided pair queries ------------------------===//
//
// What a query the solver leaves undecided, or answers with a witness that
// breaks a fact the model keeps apart, tries next: the powers of two and
// parameter ranges the witness broke, stated and asked again; a witness
// searched for in one launch the host allows, its values fixed (before
// anything else where products of thread coordinates and host values make
// the query nonlinear and the fixed values make it linear; otherwise once
// the pair solver gives up, where the kernel has a launch or the fixed
// values leave the query linear); a solver that has checked nothing
// before; one that first solves the query's equations for their variables;
// more effort, while the launch's budget lasts (QueryBudget.h); and, for a
// pair still undecided, a witness in a few other launches, then with the
// launch values the pair's products read fixed to small numbers.
//
//===----------------------------------------------------------------------===//
#include "analyzer/check/LaunchPairChecker.h"

#include "analyzer/model/Arith.h"
#include "analyzer/model/TermWalk.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <set>

namespace gpurace::analyzer {

namespace {

// Whether `e` multiplies two non-constant terms or divides by one.
bool isNonlinear(const z3::expr &e) {
  Z3_decl_kind kind = e.decl().decl_kind();
  unsigned unknowns = 0;
  for (unsigned i = 0; i < e.num_args(); ++i)
    unknowns += !e.arg(i).is_numeral();
  if ((kind == Z3_OP_MUL || kind == Z3_OP_BMUL) && unknowns >= 2)
    return true;
  return (kind == Z3_OP_DIV || kind == Z3_OP_IDIV || kind == Z3_OP_MOD || kind == Z3_OP_REM ||
          kind == Z3_OP_BSDIV || kind == Z3_OP_BUDIV || kind == Z3_OP_BSREM ||
          kind == Z3_OP_BUREM || kind == Z3_OP_BSMOD) &&
         !e.arg(1).is_numeral();
}

// Whether any term within `terms` is nonlinear.
bool anyNonlinear(const std::vector<z3::expr> &terms) {
  return walkTerms(terms, [](const z3::expr &e) {
    return isNonlinear(e) ? TermVisit::Stop : TermVisit::Descend;
  });
}

} // namespace

namespace {

// Every assertion of `from` added to `to`, through `transform` if given.
void copyAssertions(const z3::solver &from, z3::solver &to,
                    const std::function<z3::expr(const z3::expr &)> &transform = nullptr) {
  z3::expr_vector asserted = from.assertions();
  for (unsigned i = 0; i < asserted.size(); ++i)
    to.add(transform ? transform(asserted[i]) : asserted[i]);
}

} // namespace

z3::check_result LaunchPairChecker::withFactsWitnessesBreak(z3::solver &solver,
                                                  const std::vector<z3::expr> &trackers,
                                                  z3::check_result verdict) {
  const std::vector<z3::expr> &terms = power_terms_;
  if (terms.empty() && parameter_ranges_.empty())
    return verdict;
  // A witness that gives two powers neither the same value nor values a
  // factor of two apart first gets that one consequence for the pair (one
  // loop's exit above another's step is then at least twice the step); a
  // term still given another value then gets its case per exponent. No
  // statement is made twice, so the rounds end.
  std::set<std::pair<size_t, size_t>> related;
  std::set<size_t> exact, ranged;
  z3::expr two = arith_.constant(2, kInt64);
  while (verdict == z3::sat) {
    z3::model m = solver.get_model();
    std::vector<std::optional<int64_t>> values;
    for (const z3::expr &term : terms)
      values.push_back(Arith::numeral(m.eval(term, true), true));
    bool refined = false;
    // In 128 bits: a model may give a power 2^62.
    auto twice = [](int64_t v) { return static_cast<__int128>(v) * 2; };
    for (size_t i = 0; i < terms.size(); ++i)
      for (size_t j = i + 1; j < terms.size(); ++j) {
        if (!values[i] || !values[j] || *values[i] == *values[j] ||
            twice(*values[i]) <= *values[j] || twice(*values[j]) <= *values[i] ||
            !related.insert({i, j}).second)
          continue;
        solver.add(terms[i] == terms[j] || two * terms[i] <= terms[j] || two * terms[j] <= terms[i]);
        refined = true;
      }
    for (size_t i = 0; i < terms.size() && !refined; ++i)
      if (values[i] && (uint64_t(*values[i]) & (uint64_t(*values[i]) - 1)) != 0 &&
          exact.insert(i).second) {
        solver.add(arith_.powerOfTwoOrZero(terms[i], kInt64));
        refined = true;
      }
    for (size_t i = 0; i < parameter_ranges_.size(); ++i)
      if (m.eval(parameter_ranges_[i], true).is_false() && ranged.insert(i).second) {
        solver.add(parameter_ranges_[i]);
        refined = true;
      }
    if (!refined)
      break;
    verdict = solver.check(asVector(trackers));
  }
  return verdict;
}

LaunchPairChecker::Answer LaunchPairChecker::askAfresh(const z3::solver &solver,
                                                           const std::vector<z3::expr> &trackers) {
  // The launch's pair solver carries what every earlier pair left in it
  // (learned clauses, variable activity) and works incrementally, without
  // the preprocessing a first check gets. A query it gives up on is often
  // settled at once by a solver that sees only this query: a work-efficient
  // scan's steps inside a loop of data-dependent trips stayed undecided
  // there at 16 times the effort, and are proved afresh at the first. The
  // fresh solver also has Z3's default arithmetic core, where the pair
  // solver has the simplex one, and four times the effort: a query at the
  // edge of the effort (a bitonic step's race through `tid ^ j` with j a
  // power of two from a loop) is decided one way on one solver and left
  // undecided on another, and four times settles those.
  z3::solver fresh(ctx());
  copyAssertions(solver, fresh);
  budget_.apply(fresh, pair_solver_rlimit_ * kAfreshEffort);
  Answer answer{
      withFactsWitnessesBreak(fresh, trackers, fresh.check(asVector(trackers))), std::nullopt,
      std::nullopt};
  if (answer.verdict == z3::sat)
    answer.witness = fresh.get_model();
  else if (answer.verdict == z3::unsat)
    answer.core = fresh.unsat_core();
  return answer;
}

LaunchPairChecker::Answer
LaunchPairChecker::askPreprocessed(const z3::solver &solver,
                                   const std::vector<z3::expr> &trackers) {
  z3::tactic eliminate = z3::tactic(ctx(), "simplify") & z3::tactic(ctx(), "solve-eqs") &
                         z3::tactic(ctx(), "smt");
  z3::solver solved = eliminate.mk_solver();
  copyAssertions(solver, solved);
  // Four times the effort for the launch's first few such queries, then
  // the pair solver's: a kernel whose many pairs stay undecided (a bitonic
  // sort with no launch in view) would pay that for each.
  unsigned share = preprocessed_in_full_ > 0 ? kAfreshEffort : 1;
  if (preprocessed_in_full_ > 0)
    --preprocessed_in_full_;
  budget_.apply(solved, pair_solver_rlimit_ * share);
  Answer answer{
      withFactsWitnessesBreak(solved, trackers, solved.check(asVector(trackers))), std::nullopt,
      std::nullopt};
  if (answer.verdict == z3::sat) {
    answer.witness = solved.get_model();
  } else if (answer.verdict == z3::unsat) {
    // A fact that the query stays unsat without is not in the core; one
    // whose absence leaves it undecided stays, so the core is never short.
    // Each of these checks gets the pair solver's effort: a fact the proof
    // needs leaves a query that may be hard, and is kept all the same.
    budget_.apply(solved, pair_solver_rlimit_);
    std::vector<z3::expr> core = trackers;
    for (size_t i = 0; i < core.size();) {
      std::vector<z3::expr> without = core;
      without.erase(without.begin() + static_cast<long>(i));
      if (solved.check(asVector(without)) == z3::unsat)
        core = std::move(without);
      else
        ++i;
    }
    answer.core = asVector(core);
  }
  return answer;
}

z3::check_result LaunchPairChecker::withMoreEffort(z3::solver &solver, const std::vector<z3::expr> &trackers,
                                         std::chrono::steady_clock::time_point started,
                                         unsigned cap_ms) {
  if (QueryBudget::reachedCap(std::chrono::steady_clock::now() - started, cap_ms))
    return z3::unknown;
  std::optional<unsigned> effort = budget_.takeEscalation();
  if (!effort)
    return z3::unknown;
  budget_.apply(solver, *effort);
  auto escalated = std::chrono::steady_clock::now();
  z3::check_result verdict =
      withFactsWitnessesBreak(solver, trackers, solver.check(asVector(trackers)));
  if (verdict == z3::unknown &&
      QueryBudget::reachedCap(std::chrono::steady_clock::now() - escalated, budget_.capMs(*effort)))
    budget_.endEscalations();
  budget_.apply(solver, pair_solver_rlimit_);
  return verdict;
}

std::optional<z3::model>
LaunchPairChecker::witnessWithFixedLaunch(z3::solver &solver, const std::vector<z3::expr> &trackers) {
  // Products of thread coordinates and host values (`y * stride`) make a
  // query nonlinear; with the host values fixed to one assignment the launch
  // allows, it is linear. A model found that way is a real witness.
  const std::optional<z3::expr_vector> &launch = fixedLaunch();
  if (!launch)
    return std::nullopt;
  return witnessInLaunch(solver, trackers, *launch);
}

std::optional<z3::model>
LaunchPairChecker::witnessInOtherLaunches(z3::solver &solver,
                                          const std::vector<z3::expr> &trackers) {
  // One launch may simply be the wrong one: a transposed copy of a
  // rectangular matrix races within a warp for some widths and not for
  // others. Each launch fixed is a linear query, cheap next to the effort
  // the nonlinear one already took.
  for (size_t k = 1; k <= kOtherLaunches; ++k) {
    const z3::expr_vector *launch = otherLaunch(k);
    if (!launch)
      break;
    if (std::optional<z3::model> witness =
            witnessInLaunchAfresh(solver, trackers, *launch, fixedQueryEffort()))
      return witness;
  }
  return std::nullopt;
}

unsigned LaunchPairChecker::fixedQueryEffort() const {
  // A linear query is settled well within an eighth of the effort; one
  // that is not (a bitwise term the values leave in place) is not worth
  // many full ones. Never below what a linear query of a small kernel
  // takes, even where --query-effort is smaller.
  return std::max(budget_.effort() / kFixedQueryEffortShare, kFixedQueryLeastEffort);
}

std::optional<z3::model>
LaunchPairChecker::witnessWithSmallFactors(z3::solver &solver,
                                           const std::vector<z3::expr> &trackers,
                                           const MemoryAccess &a, const MemoryAccess &b) {
  std::vector<z3::expr> factors = nonlinearFactors(a, b);
  if (factors.empty())
    return std::nullopt;
  // Only where the values make the pair linear: a product the threads
  // compute (`offset * (2 * tid + 1)`) keeps each query as hard as the one
  // left undecided.
  z3::expr_vector from(ctx()), to(ctx());
  for (const z3::expr &factor : factors) {
    from.push_back(factor);
    to.push_back(ctx().num_val(2, factor.get_sort()));
  }
  auto fixed = [&](const z3::expr &e) { return pinned(e).substitute(from, to).simplify(); };
  if (anyNonlinear({fixed(a.offset), fixed(a.path_condition), fixed(b.offset),
                    fixed(b.path_condition)}))
    return std::nullopt;
  unsigned effort = fixedQueryEffort();
  // Assignments by their largest value, 1 first: every one of {1..m}^n
  // with some value m before any with a larger one.
  std::vector<int64_t> values(factors.size(), 1);
  size_t tries = 0;
  for (int64_t largest = 1; tries < kSmallFactorTries; ++largest) {
    std::fill(values.begin(), values.end(), 1);
    while (tries < kSmallFactorTries) {
      if (std::find(values.begin(), values.end(), largest) != values.end()) {
        ++tries;
        z3::expr_vector assignment(ctx());
        for (size_t i = 0; i < factors.size(); ++i)
          assignment.push_back(factors[i] ==
                               ctx().num_val(values[i], factors[i].get_sort()));
        if (std::optional<z3::model> witness =
                witnessInLaunchAfresh(solver, trackers, assignment, effort))
          return witness;
      }
      size_t i = 0;
      while (i < values.size() && values[i] == largest)
        values[i++] = 1;
      if (i == values.size())
        break;
      ++values[i];
    }
  }
  return std::nullopt;
}

std::optional<z3::model> LaunchPairChecker::witnessInLaunch(z3::solver &solver,
                                                            const std::vector<z3::expr> &trackers,
                                                            const z3::expr_vector &launch) {
  solver.push();
  for (const z3::expr &value : launch)
    solver.add(value);
  std::optional<z3::model> witness;
  if (withFactsWitnessesBreak(solver, trackers, solver.check(asVector(trackers))) == z3::sat)
    witness = solver.get_model();
  solver.pop();
  return witness;
}

std::optional<z3::model>
LaunchPairChecker::witnessInLaunchAfresh(const z3::solver &solver,
                                         const std::vector<z3::expr> &trackers,
                                         const z3::expr_vector &launch, unsigned effort) {
  // The incremental pair solver keeps `cols == 2` beside `j * cols` and
  // still searches a nonlinear query; with the values put in, the query is
  // linear for any solver.
  z3::expr_vector from(ctx()), to(ctx());
  for (const z3::expr &value : launch) {
    from.push_back(value.arg(0));
    to.push_back(value.arg(1));
  }
  z3::solver fixed(ctx());
  copyAssertions(solver, fixed, [&](const z3::expr &e) {
    return z3::expr(e).substitute(from, to).simplify();
  });
  for (const z3::expr &value : launch)
    fixed.add(value);
  budget_.apply(fixed, effort);
  if (withFactsWitnessesBreak(fixed, trackers, fixed.check(asVector(trackers))) != z3::sat)
    return std::nullopt;
  return fixed.get_model();
}

std::optional<z3::model> LaunchPairChecker::witnessWithinArrays(z3::solver &solver,
                                                                 const std::vector<z3::expr> &trackers,
                                                                 const MemoryAccess &a,
                                                                 const MemoryAccess &b,
                                                                 const z3::model &found) {
  z3::expr_vector within(ctx());
  bool outside = false;
  for (auto [access, thread] : {std::pair{&a, 1}, std::pair{&b, 2}}) {
    if (!access->object->bytes)
      continue;
    z3::expr inside = pinned(withinObject(*access, thread));
    outside |= !found.eval(inside, true).is_true();
    within.push_back(inside);
  }
  if (!outside)
    return std::nullopt;
  ++result_.queries;
  solver.push();
  for (const z3::expr &fact : within)
    solver.add(fact);
  z3::check_result verdict = solver.check(asVector(trackers));
  std::optional<z3::model> inside;
  if (verdict == z3::sat)
    inside = solver.get_model();
  solver.pop();
  if (verdict != z3::unknown)
    return inside;
  // The pair solver may have spent its effort on the race itself.
  z3::solver fresh(ctx());
  copyAssertions(solver, fresh);
  for (const z3::expr &fact : within)
    fresh.add(fact);
  budget_.apply(fresh, budget_.effort());
  ++result_.queries;
  if (fresh.check(asVector(trackers)) == z3::sat)
    inside = fresh.get_model();
  return inside;
}

std::vector<z3::expr> LaunchPairChecker::nonlinearFactors(const MemoryAccess &a,
                                                          const MemoryAccess &b) const {
  constexpr size_t kMaxFactors = 3;
  std::vector<z3::expr> factors;
  std::set<unsigned> seen;
  // With the launch's pinned sizes put in: `blockIdx.y * blockDim.y` is
  // linear in a block of fixed shape.
  walkTerms({pinned(a.offset), pinned(a.path_condition), pinned(b.offset),
             pinned(b.path_condition)},
            [&](const z3::expr &e) {
    if (!isNonlinear(e))
      return TermVisit::Descend;
    for (const z3::expr &symbol : uninterpretedTerms({e}))
      if (symbol.num_args() == 0 && (symbol.is_int() || symbol.is_bv()) &&
          !symbols_.isThreadDependent(symbol) && seen.insert(symbol.id()).second)
        factors.push_back(symbol);
    return factors.size() >= kMaxFactors ? TermVisit::Stop : TermVisit::Prune;
  });
  if (factors.size() > kMaxFactors)
    factors.erase(factors.begin() + kMaxFactors, factors.end());
  return factors;
}

bool LaunchPairChecker::nonlinear(const MemoryAccess &access) {
  auto [it, inserted] = nonlinear_.try_emplace(&access, false);
  if (inserted)
    it->second = anyNonlinear({access.offset, access.path_condition});
  return it->second;
}

namespace {

// The launch's sizes, host values and parameters a model gives.
std::vector<z3::func_decl> hostValues(const z3::model &values) {
  std::vector<z3::func_decl> symbols;
  for (unsigned i = 0; i < values.num_consts(); ++i) {
    z3::func_decl symbol = values.get_const_decl(i);
    std::string name = symbol.name().str();
    for (const char *prefix : {"param:", "host:", "blockDim.", "gridDim."})
      if (name.rfind(prefix, 0) == 0) {
        symbols.push_back(symbol);
        break;
      }
  }
  return symbols;
}

// The values `model` gives the launch's sizes, host values and parameters,
// as equalities.
z3::expr_vector launchValues(const z3::model &model) {
  z3::expr_vector values(model.ctx());
  for (const z3::func_decl &symbol : hostValues(model))
    values.push_back(symbol() == model.get_const_interp(symbol));
  return values;
}

// One assignment of the launch that `launch`, holding the base, allows;
// `spread`: of two blocks of two threads at least where it allows that.
std::optional<z3::model> assignLaunch(z3::solver &launch, const z3::expr_vector &trackers,
                                      bool spread) {
  if (launch.check(trackers) != z3::sat)
    return std::nullopt;
  z3::model values = launch.get_model();
  // Small values where the base allows them: a witness then needs no
  // huge sizes, and many threads share a division of the work (`gid /
  // per_division`), which races across divisions need. A launch of one
  // block or one thread is the smallest model, and holds no race across
  // blocks or threads to witness.
  launch.push();
  std::vector<z3::expr> at_least_two;
  for (const z3::func_decl &symbol : hostValues(values)) {
    if (!symbol.range().is_int())
      continue;
    launch.add(symbol() >= -64 && symbol() <= 64);
    std::string name = symbol.name().str();
    if (spread && (name == "blockDim.x" || name == "gridDim.x"))
      at_least_two.push_back(symbol() >= 2);
  }
  launch.push();
  for (const z3::expr &bound : at_least_two)
    launch.add(bound);
  z3::check_result spread_out = launch.check(trackers);
  if (spread_out == z3::sat)
    values = launch.get_model();
  launch.pop();
  if (spread_out != z3::sat && launch.check(trackers) == z3::sat)
    values = launch.get_model();
  launch.pop();
  return values;
}

} // namespace

bool LaunchPairChecker::linearWithLaunchFixed(const MemoryAccess &access) {
  auto [it, inserted] = linear_with_launch_fixed_.try_emplace(&access, false);
  const std::optional<z3::expr_vector> &launch = fixedLaunch();
  if (!inserted || !launch)
    return it->second;
  z3::expr_vector from(ctx()), to(ctx());
  for (const z3::expr &value : *launch) {
    from.push_back(value.arg(0));
    to.push_back(value.arg(1));
  }
  auto fixed = [&](const z3::expr &e) { return pinned(e).substitute(from, to).simplify(); };
  it->second = !anyNonlinear({fixed(access.offset), fixed(access.path_condition)});
  return it->second;
}

const std::optional<z3::expr_vector> &LaunchPairChecker::fixedLaunch() {
  // The base is the same for every pair: its one assignment is found once,
  // on the pair solver where it holds no pair yet (the base is already
  // taken in there), else on a solver of its own.
  if (fixed_launch_searched_)
    return fixed_launch_;
  fixed_launch_searched_ = true;
  std::vector<z3::expr> trackers;
  bool at_base = pair_solver_ && Z3_solver_get_num_scopes(ctx(), *pair_solver_) == 0;
  std::optional<z3::solver> own;
  if (!at_base) {
    own.emplace(ctx());
    addBase(*own, trackers);
  }
  z3::solver &launch = at_base ? pairSolver(trackers) : *own;
  // On the pair solver, at its own effort: changing a solver's limits
  // costs about as much as this search does on a small kernel.
  if (at_base)
    launch.push();
  else
    budget_.apply(launch, budget_.effort() / 4);
  std::optional<z3::model> values = assignLaunch(launch, asVector(trackers), true);
  if (at_base)
    launch.pop();
  if (!values)
    return fixed_launch_;
  fixed_launch_.emplace(launchValues(*values));
  return fixed_launch_;
}

namespace {

// That a launch gives each of the kernel's parameters a value `launch`
// does not (`fresh`), or at least one of its parameters and sizes another
// value: host values the kernel does not see (argc behind a default)
// could otherwise change alone, and the solver's next model tends to
// differ from the last in one value where a race needs others.
struct Difference {
  z3::expr fresh, other;
};

Difference differenceFrom(const z3::expr_vector &launch, z3::context &z3) {
  z3::expr_vector seen(z3), fresh(z3);
  for (const z3::expr &value : launch) {
    std::string name = value.arg(0).decl().name().str();
    if (name.rfind("host:", 0) == 0)
      continue;
    seen.push_back(value);
    if (name.rfind("param:", 0) == 0)
      fresh.push_back(!value);
  }
  z3::expr other = seen.empty() ? z3.bool_val(false) : !z3::mk_and(seen);
  return {fresh.empty() ? other : z3::mk_and(fresh), other};
}

} // namespace

const z3::expr_vector *LaunchPairChecker::otherLaunch(size_t k) {
  const std::optional<z3::expr_vector> &first = fixedLaunch();
  if (!first)
    return nullptr;
  while (other_launches_.size() < k && !other_launches_exhausted_) {
    if (!launch_search_) {
      launch_search_.emplace(ctx());
      addBase(*launch_search_, launch_search_trackers_);
      budget_.apply(*launch_search_, budget_.effort() / 4);
    }
    Difference difference =
        differenceFrom(other_launches_.empty() ? *first : other_launches_.back(), ctx());
    launch_search_->add(difference.other);
    launch_search_->push();
    launch_search_->add(difference.fresh);
    std::optional<z3::model> values =
        assignLaunch(*launch_search_, asVector(launch_search_trackers_), false);
    launch_search_->pop();
    if (!values)
      values = assignLaunch(*launch_search_, asVector(launch_search_trackers_), false);
    if (!values) {
      other_launches_exhausted_ = true;
      break;
    }
    other_launches_.push_back(launchValues(*values));
  }
  return k <= other_launches_.size() ? &other_launches_[k - 1] : nullptr;
}

} // namespace gpurace::analyzer
