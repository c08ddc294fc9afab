#include "analyzer/check/LaunchPairChecker.h"

#include "analyzer/check/Delinearization.h"
#include "analyzer/model/KernelModelBuilder.h"
#include "analyzer/report/Ranking.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unordered_set>

namespace gpurace::analyzer {

namespace {

bool isAtomic(const MemoryAccess &a) { return a.site.kind() == v1::ACCESS_KIND_ATOMIC; }

// Volatile is not atomic: volatile accesses race like plain ones.
bool isVolatile(const MemoryAccess &a) { return a.strong && !isAtomic(a); }

// Atomics and volatile accesses are strong: either can be the flag of a
// release and an acquire, and two of them on such a flag do not race.
bool isStrong(const MemoryAccess &a) { return isAtomic(a) || a.strong; }

// Whether the two threads of a race of this class may be in different
// blocks (inter-block and scoped races).
bool crossesBlocks(v1::RaceClass race_class) {
  return race_class != v1::RACE_CLASS_INTRA_WARP && race_class != v1::RACE_CLASS_INTRA_BLOCK;
}

bool blockScoped(const MemoryAccess &a) {
  return a.site.scope() == v1::MEMORY_SCOPE_BLOCK;
}

// The classes a pair can have. Each is its own query and, when satisfiable,
// its own race: the thread pairs differ and so does the fix.
std::vector<ClassQuery> classesFor(const MemoryAccess &a, const MemoryAccess &b) {
  bool shared = a.object->space == v1::MEMORY_SPACE_SHARED;
  if (isAtomic(a) && isAtomic(b)) {
    // Atomics never race with atomics whose scope includes both threads;
    // a block-scope atomic does not include another block's threads.
    if (shared || (!blockScoped(a) && !blockScoped(b)))
      return {};
    return {{v1::RACE_CLASS_SCOPED, v1::SYNC_DEFECT_INSUFFICIENT_ATOMIC_SCOPE,
             v1::MEMORY_SCOPE_BLOCK}};
  }
  v1::SyncDefect mixed = isAtomic(a) || isAtomic(b) ? v1::SYNC_DEFECT_ATOMIC_VS_PLAIN
                         : isVolatile(a) && isVolatile(b)
                             ? v1::SYNC_DEFECT_VOLATILE_NOT_SYNCHRONIZING
                             : v1::SYNC_DEFECT_UNSPECIFIED;
  auto defect = [&](v1::SyncDefect plain) {
    return mixed != v1::SYNC_DEFECT_UNSPECIFIED ? mixed : plain;
  };
  std::vector<ClassQuery> out;
  if (!shared)
    out.push_back({v1::RACE_CLASS_INTER_BLOCK,
                   defect(v1::SYNC_DEFECT_MISSING_GRID_SYNC)});
  out.push_back({v1::RACE_CLASS_INTRA_BLOCK, defect(v1::SYNC_DEFECT_MISSING_BARRIER)});
  out.push_back({v1::RACE_CLASS_INTRA_WARP, defect(v1::SYNC_DEFECT_MISSING_SYNCWARP)});
  return out;
}

// `'a', 'b'`: each name once, in order of first appearance.
std::string quotedList(const std::vector<std::string> &names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    if (std::find(names.begin(), names.begin() + i, names[i]) == names.begin() + i)
      out += (out.empty() ? "'" : ", '") + names[i] + "'";
  return out;
}

} // namespace

z3::expr LaunchPairChecker::linearId(int thread) const { return symbols_.linearThreadId(thread); }

z3::expr LaunchPairChecker::sameBlock() const {
  z3::expr same = ctx().bool_val(true);
  for (int axis = 0; axis < 3; ++axis)
    same = same && symbols_.forThread(symbols_.blockIdx(axis), 1) ==
                       symbols_.forThread(symbols_.blockIdx(axis), 2);
  return same;
}

z3::expr LaunchPairChecker::laneIn(uint32_t mask, int thread) const {
  z3::expr lane = arith_.rem(linearId(thread),
                             arith_.constant(options_.warp_size, kInt64), false);
  z3::expr in = ctx().bool_val(false);
  for (unsigned lo = 0; lo < 32; ++lo) {
    if (!(mask >> lo & 1))
      continue;
    unsigned hi = lo;
    while (hi + 1 < 32 && (mask >> (hi + 1) & 1))
      ++hi;
    in = in || (arith_.lessEq(arith_.constant(lo, kInt64), lane, true) &&
                arith_.lessEq(lane, arith_.constant(hi, kInt64), true));
    lo = hi;
  }
  return in;
}

z3::expr LaunchPairChecker::joins(const LaneGroup &group) const {
  z3::expr warp_size = arith_.constant(options_.warp_size, kInt64);
  auto lane = [&](int thread) { return arith_.rem(linearId(thread), warp_size, false); };
  if (group.tile_size < options_.warp_size) {
    z3::expr size = arith_.constant(group.tile_size, kInt64);
    return arith_.div(lane(1), size, false) == arith_.div(lane(2), size, false);
  }
  return laneIn(group.mask, 1) && laneIn(group.mask, 2);
}

z3::expr LaunchPairChecker::mustMeet(const Barrier &barrier) const {
  z3::expr distinct = linearId(1) != linearId(2);
  switch (barrier.scope) {
  case Barrier::Scope::Grid:
    return !sameBlock() || distinct;
  case Barrier::Scope::Block:
    return sameBlock() && distinct;
  case Barrier::Scope::Warp:
    break;
  }
  z3::expr warp_size = arith_.constant(options_.warp_size, kInt64);
  return sameBlock() && distinct &&
         arith_.div(linearId(1), warp_size, false) ==
             arith_.div(linearId(2), warp_size, false) &&
         joins(*barrier.lanes);
}

z3::expr LaunchPairChecker::classConstraint(v1::RaceClass race_class) const {
  z3::expr warp_size = arith_.constant(options_.warp_size, kInt64);
  z3::expr warp1 = arith_.div(linearId(1), warp_size, false);
  z3::expr warp2 = arith_.div(linearId(2), warp_size, false);
  switch (race_class) {
  case v1::RACE_CLASS_INTRA_WARP:
    return sameBlock() && warp1 == warp2 && linearId(1) != linearId(2);
  case v1::RACE_CLASS_INTRA_BLOCK:
    return sameBlock() && warp1 != warp2;
  default:
    return !sameBlock();
  }
}

z3::expr LaunchPairChecker::concurrent(const MemoryAccess &a, const MemoryAccess &b,
                             v1::RaceClass race_class) const {
  auto same = [&](const z3::expr &x, const z3::expr &y) {
    return symbols_.forThread(x, 1) == symbols_.forThread(y, 2);
  };
  switch (race_class) {
  case v1::RACE_CLASS_INTRA_WARP: {
    z3::expr unordered = same(a.counters.warp, b.counters.warp);
    // A partial __syncwarp orders two lanes only when both are in its mask.
    std::set<LaneGroup> groups;
    for (const auto *access : {&a, &b})
      for (const auto &[group, unused] : access->counters.masked_warp)
        groups.insert(group);
    z3::expr zero = arith_.constant(0, kInt64);
    for (const LaneGroup &group : groups) {
      auto count = [&](const MemoryAccess &x) {
        auto it = x.counters.masked_warp.find(group);
        return it == x.counters.masked_warp.end() ? zero : it->second;
      };
      unordered = unordered && (same(count(a), count(b)) || !joins(group));
    }
    if (options_.assume_warp_lockstep)
      // Lanes in lock-step execute one statement together: only accesses of
      // the same statement instance can conflict.
      return unordered && ctx().bool_val(a.order == b.order);
    return unordered;
  }
  case v1::RACE_CLASS_INTRA_BLOCK:
    return same(a.counters.block, b.counters.block);
  default:
    return same(a.counters.grid, b.counters.grid);
  }
}

z3::expr LaunchPairChecker::startOf(const MemoryAccess &access, const MemoryAccess &other) const {
  // Two pointer parameters into one buffer: offsets count from their own
  // starts, which lie where the host's pointer arithmetic puts them (a fact
  // of the launch), or anywhere.
  if (access.object != other.object)
    return arith_.add(access.offset, pointerBase(*access.object));
  return access.offset;
}

bool LaunchPairChecker::dividesExactly(const z3::expr &value, const z3::expr &divisor) {
  auto [it, inserted] = divides_exactly_.try_emplace({value.id(), divisor.id()}, false);
  if (!inserted)
    return it->second;
  std::vector<z3::expr> trackers;
  z3::solver &solver = pairSolver(trackers);
  solver.push();
  budget_.apply(solver, budget_.effort() / 16);
  add(solver, z3::mod(value, divisor) != ctx().int_val(0));
  it->second = solver.check(asVector(trackers)) == z3::unsat;
  solver.pop();
  budget_.apply(solver, pair_solver_rlimit_);
  return it->second;
}

std::vector<z3::expr> LaunchPairChecker::delinearization(const MemoryAccess &a,
                                                         const MemoryAccess &b) {
  // The places the host gives pointers in their buffers are in place, so
  // that two pointers passed into one buffer cancel. Other fixed values
  // stay symbols: `k * cols` is a product the lemmas read, `k * 1000` not.
  auto placed = [&](const z3::expr &e) {
    z3::expr copy = e;
    return placed_from_.empty() ? copy : copy.substitute(placed_from_, placed_to_);
  };
  auto side = [&](const MemoryAccess &access, const MemoryAccess &other, int thread) {
    return OffsetSide{placed(startOf(access, other)),
                      [this, thread](const z3::expr &e) { return symbols_.forThread(e, thread); },
                      static_cast<int64_t>(access.site.size_bytes())};
  };
  // Loop values of common iterations, and values of one block (a shared
  // scalar's read): read as one factor under the premise that the two
  // threads' renamings agree.
  std::vector<z3::expr> iterations = a.iterations;
  iterations.insert(iterations.end(), b.iterations.begin(), b.iterations.end());
  for (int axis = 0; axis < 3; ++axis)
    iterations.push_back(symbols_.blockIdx(axis));
  DelinearizationTerms terms;
  terms.is_launch_wide = [this](const z3::expr &e) { return !symbols_.isThreadDependent(e); };
  terms.may_share = [this, &iterations](const z3::expr &e) {
    return !symbols_.isThreadDependent(e, iterations);
  };
  for (const KernelModel::LowBitsSplit &split : model_.low_bits_splits)
    terms.splits.push_back(
        {split.value, split.quotient, split.divisor, split.remainder, split.holds});
  terms.divides_exactly = [this](const z3::expr &value, const z3::expr &divisor) {
    return dividesExactly(value, divisor);
  };
  return delinearizationLemmas(side(a, b, 1), side(b, a, 2), terms);
}

std::vector<z3::expr> LaunchPairChecker::bitFlipInverses() const {
  std::vector<z3::expr> lemmas;
  auto on = [this](const z3::expr &e, int thread) { return symbols_.forThread(e, thread); };
  for (const KernelModel::BitFlip &flip : model_.bit_flips)
    lemmas.push_back(z3::implies(on(flip.bit, 1) == on(flip.bit, 2) &&
                                     on(flip.result, 1) == on(flip.result, 2),
                                 on(flip.value, 1) == on(flip.value, 2)));
  return lemmas;
}

std::vector<z3::expr> LaunchPairChecker::iterationOrder(const MemoryAccess &a,
                                              const MemoryAccess &b) const {
  auto inside = [](const MemoryAccess &access, const z3::expr &k) {
    return std::any_of(access.iterations.begin(), access.iterations.end(),
                       [&](const z3::expr &i) { return z3::eq(i, k); });
  };
  auto on = [this](const z3::expr &e, int thread) { return symbols_.forThread(e, thread); };
  std::vector<z3::expr> lemmas;
  for (const KernelModel::IterationSync &loop : model_.iteration_syncs) {
    if (!inside(a, loop.iteration) || !inside(b, loop.iteration))
      continue;
    z3::expr same_outer = ctx().bool_val(true);
    for (const z3::expr &outer : loop.outer)
      same_outer = same_outer && on(outer, 1) == on(outer, 2);
    auto before = [&](int first, int second) {
      return z3::implies(
          same_outer && arith_.less(on(loop.iteration, first), on(loop.iteration, second), true),
          arith_.lessEq(arith_.add(on(loop.head, first), on(loop.per_iteration, first)),
                        on(loop.head, second), true));
    };
    lemmas.push_back(before(1, 2));
    lemmas.push_back(before(2, 1));
  }
  return lemmas;
}

std::optional<LaunchPairChecker::Answer>
LaunchPairChecker::iterationByIteration(z3::solver &solver, const std::vector<z3::expr> &trackers,
                                        const MemoryAccess &a, const MemoryAccess &b) {
  // Two threads in the same iteration see the loop's uniform values (a
  // scan's `offset`) alike, and the addresses decide; in different ones the
  // barrier counts alone tell them apart. Asked as one query the solver has
  // to find that split itself, and a loop of data-dependent trips around a
  // scan's steps kept it busy up to 100 times longer. A witness of either
  // case is one of the whole query.
  z3::expr same = ctx().bool_val(true);
  bool shared_loop = false;
  for (const z3::expr &k : a.iterations)
    for (const z3::expr &other : b.iterations)
      if (z3::eq(k, other)) {
        same = same && symbols_.forThread(k, 1) == symbols_.forThread(k, 2);
        shared_loop = true;
      }
  if (!shared_loop)
    return std::nullopt;
  Answer answer{z3::unsat, std::nullopt, z3::expr_vector(ctx())};
  for (const z3::expr &iterations : {same, !same}) {
    solver.push();
    solver.add(iterations);
    ++result_.queries;
    answer.verdict = withFactsWitnessesBreak(solver, trackers, solver.check(asVector(trackers)));
    if (answer.verdict == z3::sat) {
      answer.witness = solver.get_model();
    } else if (answer.verdict == z3::unsat) {
      z3::expr_vector part = solver.unsat_core();
      for (unsigned i = 0; i < part.size(); ++i)
        answer.core->push_back(part[i]);
    }
    solver.pop();
    if (answer.verdict == z3::sat) {
      answer.core.reset();
      return answer;
    }
    if (answer.verdict == z3::unknown)
      return std::nullopt;
  }
  return answer;
}

z3::expr LaunchPairChecker::raceOfClass(const MemoryAccess &a, const MemoryAccess &b,
                              v1::RaceClass race_class) const {
  return classConstraint(race_class) && concurrent(a, b, race_class) &&
         !sync_.ordered(a, b, crossesBlocks(race_class));
}

z3::expr LaunchPairChecker::overlap(const MemoryAccess &a, const MemoryAccess &b) const {
  z3::expr start_a = symbols_.forThread(startOf(a, b), 1);
  z3::expr start_b = symbols_.forThread(startOf(b, a), 2);
  z3::expr end_a = arith_.add(start_a, arith_.constant(a.site.size_bytes(), kInt64));
  z3::expr end_b = arith_.add(start_b, arith_.constant(b.site.size_bytes(), kInt64));
  return arith_.less(start_a, end_b, true) && arith_.less(start_b, end_a, true);
}

z3::expr LaunchPairChecker::pointerBase(const MemoryObject &object) const {
  return symbols_.shared(pointerBaseSymbolName(object.name), kInt64);
}

bool LaunchPairChecker::placed(const MemoryObject &object) const {
  return object.kind == MemoryObject::Kind::PointerParameter &&
         context_.placed.count(object.parameter_index) > 0;
}

bool LaunchPairChecker::mayAlias(const MemoryObject &a, const MemoryObject &b) const {
  if (&a == &b)
    return true;
  // A pointer into one of several buffers may alias what one of them may.
  if (!a.members.empty())
    return std::any_of(a.members.begin(), a.members.end(),
                       [&](const MemoryObject *member) { return mayAlias(*member, b); });
  if (!b.members.empty())
    return mayAlias(b, a);
  using Kind = MemoryObject::Kind;
  if (a.kind == Kind::Unknown || b.kind == Kind::Unknown)
    return a.space != v1::MEMORY_SPACE_SHARED && b.space != v1::MEMORY_SPACE_SHARED;
  if (a.kind != Kind::PointerParameter || b.kind != Kind::PointerParameter)
    return false;
  int i = a.parameter_index, j = b.parameter_index;
  if (context_.may_alias.count({std::min(i, j), std::max(i, j)}))
    return true;
  // A pointer the host code does not follow may be a copy of any other,
  // but a wrapper's parameters are taken as buffers of their own.
  auto unseen = [&](int parameter) {
    return context_.unknown_origin.count(parameter) ||
           (options_.assume_aliasing && context_.assumed_distinct.count(parameter));
  };
  auto distinct = [&](int parameter) {
    return !options_.assume_aliasing && context_.assumed_distinct.count(parameter);
  };
  return (unseen(i) || unseen(j)) && !distinct(i) && !distinct(j);
}

bool LaunchPairChecker::unwrittenInLaunch(const MemoryObject &object) const {
  return std::none_of(model_.accesses.begin(), model_.accesses.end(),
                      [&](const MemoryAccess &access) {
                        return access.site.kind() != v1::ACCESS_KIND_READ &&
                               mayAlias(object, *access.object);
                      });
}

std::optional<z3::expr> LaunchPairChecker::aliasCondition(const MemoryAccess &a,
                                                const MemoryAccess &b) const {
  using Kind = MemoryObject::Kind;
  if (a.object == b.object || a.object->kind != Kind::PointerParameter ||
      b.object->kind != Kind::PointerParameter)
    return std::nullopt;
  int i = a.object->parameter_index, j = b.object->parameter_index;
  auto found = context_.alias_conditions.find({std::min(i, j), std::max(i, j)});
  if (found == context_.alias_conditions.end())
    return std::nullopt;
  return found->second;
}

bool LaunchPairChecker::distinctByAssumption(const MemoryAccess &a, const MemoryAccess &b) const {
  using Kind = MemoryObject::Kind;
  return !options_.assume_aliasing && a.object != b.object &&
         a.object->kind == Kind::PointerParameter && b.object->kind == Kind::PointerParameter &&
         (context_.assumed_distinct.count(a.object->parameter_index) ||
          context_.assumed_distinct.count(b.object->parameter_index));
}

void LaunchPairChecker::collectConstants() {
  for (const Fact &fact : context_.facts) {
    z3::expr term = fact.term.simplify();
    bool pinned = false;
    if (term.is_app() && term.decl().decl_kind() == Z3_OP_EQ) {
      for (int side = 0; side < 2 && !pinned; ++side) {
        z3::expr symbol = term.arg(side), number = term.arg(1 - side);
        if (symbol.is_const() && !symbol.is_numeral() && number.is_numeral()) {
          pinned = true;
          pinned_symbol_.emplace(fact_pinned_.size(), symbol);
          pinned_from_.push_back(symbol);
          pinned_to_.push_back(number);
          if (symbol.decl().name().str().rfind(pointerBaseSymbolName(""), 0) == 0) {
            placed_from_.push_back(symbol);
            placed_to_.push_back(number);
          }
        }
      }
    }
    fact_pinned_.push_back(pinned);
  }
  boundCoordinates();
  base_ = baseAssertions();
  for (const z3::expr &power : model_.powers_of_two)
    for (int t = 1; t <= 2; ++t) {
      z3::expr term = pinned(symbols_.forThread(power, t));
      if (std::none_of(power_terms_.begin(), power_terms_.end(),
                       [&](const z3::expr &known) { return z3::eq(known, term); }))
        power_terms_.push_back(term);
    }
  for (const z3::expr &range : model_.parameter_ranges)
    parameter_ranges_.push_back(pinned(range));
  for (size_t i = 0; i < context_.facts.size(); ++i)
    base_trackers_.push_back(ctx().bool_const(("fact!" + std::to_string(i)).c_str()));
}

void LaunchPairChecker::boundCoordinates() {
  if (arith_.mode() != OverflowMode::Math)
    return;
  // The hardware's limits where the launch leaves a size open.
  auto upperEnd = [&](const z3::expr &size, int64_t limit) {
    int64_t n = 0;
    return pinned(size).is_numeral_i64(n) ? n - 1 : limit - 1;
  };
  for (int axis = 0; axis < 3; ++axis) {
    int64_t last_thread = upperEnd(symbols_.blockDim(axis), axis == 2 ? 64 : 1024);
    int64_t last_block = upperEnd(symbols_.gridDim(axis), axis == 0 ? 2147483647 : 65535);
    for (int t = 1; t <= 2; ++t) {
      ranges_.bound(symbols_.forThread(symbols_.threadIdx(axis), t), 0, last_thread);
      ranges_.bound(symbols_.forThread(symbols_.blockIdx(axis), t), 0, last_block);
    }
  }
}

z3::expr LaunchPairChecker::pinned(const z3::expr &e) const {
  z3::expr copy = e;
  z3::expr out = pinned_from_.empty() ? copy : copy.substitute(pinned_from_, pinned_to_);
  return arith_.mode() == OverflowMode::Math ? ranges_.simplify(out) : out;
}

void LaunchPairChecker::add(z3::solver &solver, const z3::expr &e) const { solver.add(pinned(e)); }

std::vector<z3::expr> LaunchPairChecker::baseAssertions() const {
  std::vector<z3::expr> out;
  auto add = [&](const z3::expr &e) { out.push_back(pinned(e)); };
  for (int axis = 0; axis < 3; ++axis) {
    add(arith_.lessEq(arith_.constant(1, kUInt32), symbols_.blockDim(axis), false));
    add(arith_.lessEq(arith_.constant(1, kUInt32), symbols_.gridDim(axis), false));
    // Hardware limits keep block sizes and ids small enough for 32 bits.
    add(arith_.lessEq(symbols_.blockDim(axis),
                      arith_.constant(axis == 2 ? 64 : 1024, kUInt32), false));
    add(arith_.lessEq(symbols_.gridDim(axis),
                      arith_.constant(axis == 0 ? 2147483647 : 65535, kUInt32), false));
  }
  for (int t = 1; t <= 2; ++t) {
    add(symbols_.coordinateBounds(t));
    for (const z3::expr &fact : model_.thread_facts)
      add(symbols_.forThread(fact, t));
  }
  // With the block's sizes known the rank is linear, and the solver
  // needs no help with it.
  if (!pinned(symbols_.blockDim(0)).is_numeral() || !pinned(symbols_.blockDim(1)).is_numeral())
    add(symbols_.sameRankTheorem());
  for (const z3::expr &fact : model_.shared_facts)
    add(fact);
  std::map<const MemoryObject *, bool> unwritten;
  for (const KernelModel::ParameterContents &contents : model_.parameter_contents) {
    auto known = unwritten.try_emplace(contents.object, false);
    if (known.second)
      known.first->second = unwrittenInLaunch(*contents.object);
    if (known.first->second)
      for (int t = 1; t <= 2; ++t)
        add(symbols_.forThread(contents.fact, t));
  }
  for (const KernelModel::TicketAtomic &ticket : model_.tickets) {
    z3::expr same_word = symbols_.forThread(ticket.address, 1) ==
                         symbols_.forThread(ticket.address, 2);
    z3::expr other_thread = ticket.per_block ? !sameBlock()
                                             : !sameBlock() || linearId(1) != linearId(2);
    add(z3::implies(other_thread && same_word,
                    symbols_.forThread(ticket.result, 1) != symbols_.forThread(ticket.result, 2)));
  }
  for (size_t i = 0; i < context_.facts.size(); ++i) {
    z3::expr tracker = ctx().bool_const(("fact!" + std::to_string(i)).c_str());
    if (!fact_pinned_[i])
      add(z3::implies(tracker, context_.facts[i].term));
  }
  return out;
}

void LaunchPairChecker::addBase(z3::solver &solver, std::vector<z3::expr> &trackers) const {
  for (const z3::expr &assertion : base_)
    solver.add(assertion);
  trackers = base_trackers_;
}

z3::solver &LaunchPairChecker::pairSolver(std::vector<z3::expr> &trackers) {
  if (!pair_solver_) {
    pair_solver_.emplace(ctx());
    // Z3's simplex-based arithmetic core (arith.solver=2) rather than its
    // default one: on the incremental pair solver, whose queries are mostly
    // bounds and small linear systems over many shared facts, it takes half
    // the time on scans and sorting networks (cuda-samples' bisect_large.cu
    // 17.6 s to 7.6 s) and no more elsewhere. A query it leaves undecided
    // is asked afresh of a solver with the default core (askAfresh).
    z3::params engine(ctx());
    engine.set("arith.solver", kSimplexArithmetic);
    pair_solver_->set(engine);
    std::vector<z3::expr> unused;
    addBase(*pair_solver_, unused);
  }
  trackers = base_trackers_;
  // The cap also shrinks when another instance of the kernel runs into it.
  unsigned cap_ms = budget_.capMs(budget_.effort());
  if (pair_solver_rlimit_ != budget_.effort() || pair_solver_cap_ms_ != cap_ms) {
    budget_.apply(*pair_solver_, budget_.effort());
    pair_solver_rlimit_ = budget_.effort();
    pair_solver_cap_ms_ = cap_ms;
  }
  return *pair_solver_;
}

z3::expr_vector LaunchPairChecker::asVector(const std::vector<z3::expr> &exprs) const {
  z3::expr_vector out(ctx());
  for (const z3::expr &e : exprs)
    out.push_back(e);
  return out;
}

CheckResult LaunchPairChecker::run() {
  for (size_t i = 0; i < model_.accesses.size(); ++i)
    for (size_t j = i; j < model_.accesses.size(); ++j)
      checkPair(model_.accesses[i], model_.accesses[j]);
  resolveReadsOfOwnStores();
  for (const Barrier &barrier : model_.barriers)
    if (barrier.scope != Barrier::Scope::Warp || barrier.lanes)
      checkBarrier(barrier);
  return std::move(result_);
}

void LaunchPairChecker::addInBounds(z3::solver &solver, const MemoryAccess &access,
                          int thread) const {
  // Without a launch, nothing but the code bounds the block's shape: a
  // thread past a fixed-size tile's side would access out of bounds, which
  // is not a race. With one, such a thread exists and causes the overlap.
  if (!context_.site && access.in_bounds)
    add(solver, symbols_.forThread(*access.in_bounds, thread));
  // The same for the array as a whole, however the kernel reached it
  // (`flags + 1` passed to a helper).
  if (!context_.site && access.object->bytes)
    add(solver, withinObject(access, thread));
  if (access.object->kind != MemoryObject::Kind::PointerParameter)
    return;
  auto it = context_.buffer_bytes.find(access.object->parameter_index);
  if (it == context_.buffer_bytes.end())
    return;
  z3::expr offset = symbols_.forThread(access.offset, thread);
  z3::expr end = arith_.add(offset, arith_.constant(access.site.size_bytes(), kInt64));
  add(solver, arith_.lessEq(arith_.constant(0, kInt64), offset, true) &&
                  arith_.lessEq(end, it->second, true));
}

z3::expr LaunchPairChecker::withinObject(const MemoryAccess &access, int thread) const {
  z3::expr offset = symbols_.forThread(access.offset, thread);
  z3::expr end = arith_.add(offset, arith_.constant(access.site.size_bytes(), kInt64));
  z3::expr bytes = arith_.constant(static_cast<int64_t>(*access.object->bytes), kInt64);
  return arith_.lessEq(arith_.constant(0, kInt64), offset, true) && arith_.lessEq(end, bytes, true);
}

void LaunchPairChecker::checkPair(const MemoryAccess &a, const MemoryAccess &b) {
  if (a.site.kind() == v1::ACCESS_KIND_READ && b.site.kind() == v1::ACCESS_KIND_READ)
    return;
  std::vector<ClassQuery> classes = classesFor(a, b);
  if (classes.empty())
    return;
  if (!mayAlias(*a.object, *b.object)) {
    if (distinctByAssumption(a, b))
      addAssumedDistinct(a, b);
    addKeptApart(a, b);
    return;
  }
  // Scoped atomics on a lock or flag word are reported through the
  // accesses the word guards.
  if (isStrong(a) && isStrong(b) && sync_.isSyncWord(a.object))
    return;
  std::vector<z3::expr> trackers;
  z3::solver &solver = pairSolver(trackers);
  // A product of launch values and coordinates can keep the solver busy to
  // its limit on a race that one fixed launch shows at once, in a linear
  // query. The launch is fixed before the pair's scope, on the base alone.
  bool nonlinear_pair = nonlinear(a) || nonlinear(b);
  bool fixed_first =
      nonlinear_pair && linearWithLaunchFixed(a) && linearWithLaunchFixed(b);
  solver.push();
  add(solver, symbols_.forThread(a.path_condition, 1));
  add(solver, symbols_.forThread(b.path_condition, 2));
  addInBounds(solver, a, 1);
  addInBounds(solver, b, 2);
  bool delinearized = false;
  if (a.object == b.object || a.object->kind != MemoryObject::Kind::Unknown) {
    add(solver, overlap(a, b));
    if (std::optional<z3::expr> shared = aliasCondition(a, b))
      add(solver, *shared);
    for (const z3::expr &lemma : delinearization(a, b)) {
      add(solver, lemma);
      delinearized = true;
    }
  }
  for (const z3::expr &lemma : iterationOrder(a, b))
    add(solver, lemma);
  for (const z3::expr &lemma : bitFlipInverses())
    add(solver, lemma);
  bool found = false;
  z3::expr_vector core(ctx());
  for (const ClassQuery &query : classes) {
    bool inter_block = crossesBlocks(query.race_class);
    // Barrier counts that differ by a constant, or a class the launch's
    // shape rules out, make the class false before any solving; a
    // nonlinear pair would otherwise search for a fixed launch first.
    z3::expr race = pinned(raceOfClass(a, b, query.race_class));
    if (race.simplify().is_false()) {
      ++result_.queries;
      continue;
    }
    solver.push();
    solver.add(race);
    ++result_.queries;
    auto started = std::chrono::steady_clock::now();
    unsigned cap_ms = budget_.capMs(pair_solver_rlimit_);
    // An answer found other than by the pair solver's last check.
    std::optional<Answer> answer;
    if (fixed_first)
      if (std::optional<z3::model> fixed = witnessWithFixedLaunch(solver, trackers))
        answer = Answer{z3::sat, std::move(fixed), std::nullopt};
    if (!answer)
      answer = iterationByIteration(solver, trackers, a, b);
    z3::check_result verdict =
        answer ? answer->verdict
               : withFactsWitnessesBreak(solver, trackers, solver.check(asVector(trackers)));
    // Where the pair solver gives up, one launch the host allows, fixed: a
    // race through a value the model leaves free (an index a data-dependent
    // search returns) shows there at once, where a fresh solver searched
    // the host facts' divisions for a second. With no launch in sight the
    // fixed values are only the base's, and are tried first only where
    // they leave the query linear.
    bool fixed_tried = fixed_first;
    if (verdict == z3::unknown && !fixed_first &&
        (context_.site || (linearWithLaunchFixed(a) && linearWithLaunchFixed(b)))) {
      fixed_tried = true;
      if (std::optional<z3::model> fixed = witnessWithFixedLaunch(solver, trackers)) {
        answer = Answer{z3::sat, std::move(fixed), std::nullopt};
        verdict = z3::sat;
      }
    }
    // Sizes that multiply coordinates, set small one assignment at a time,
    // leave linear queries that settle in milliseconds: a race found there
    // spares the fresh solvers their full effort on the nonlinear one.
    bool small_tried = false;
    if (verdict == z3::unknown && nonlinear_pair) {
      small_tried = true;
      if (std::optional<z3::model> small = witnessWithSmallFactors(solver, trackers, a, b)) {
        answer = Answer{z3::sat, std::move(small), std::nullopt};
        verdict = z3::sat;
      }
    }
    if (verdict == z3::unknown) {
      answer = askAfresh(solver, trackers);
      verdict = answer->verdict;
    }
    if (verdict == z3::unknown) {
      answer = askPreprocessed(solver, trackers);
      verdict = answer->verdict;
    }
    if (verdict == z3::unknown && (delinearized || !nonlinear_pair)) {
      answer.reset();
      verdict = withMoreEffort(solver, trackers, started, cap_ms);
    }
    if (verdict == z3::sat) {
      z3::model m = answer && answer->witness ? *answer->witness : solver.get_model();
      if (std::optional<z3::model> inside = witnessWithinArrays(solver, trackers, a, b, m))
        m = std::move(*inside);
      addCandidate(a, b, namedDefect(a, b, query, inter_block), &m);
      if (!context_.site && options_.rank_launch_overruns)
        if (std::optional<v1::Imprecision> overrun = launchOverrun(solver, trackers))
          *result_.candidates.back().add_imprecisions() = std::move(*overrun);
      if (storeSameValue(solver, trackers, a, b))
        result_.candidates.back().set_benign(
            "both threads store the same value wherever they race: the location "
            "ends up holding it whichever write lands last");
      else if (auto others = readsWhatItStored(solver, trackers, a, b);
               others || (others = readsWhatItStored(solver, trackers, b, a))) {
        result_.candidates.back().set_benign(
            "the reading thread stored the same value there itself before it reads, and "
            "no other write of the kernel stores there while it may read: the read "
            "returns that value whichever store it sees");
        bool a_writes = a.site.kind() == v1::ACCESS_KIND_WRITE;
        own_store_reads_.push_back({result_.candidates.size() - 1, a_writes ? &a : &b,
                                    a_writes ? &b : &a, std::move(*others)});
      }
    } else if (verdict == z3::unknown) {
      out_of_time_ = QueryBudget::reachedCap(std::chrono::steady_clock::now() - started, cap_ms);
      if (out_of_time_)
        budget_.noteClockStop();
      std::optional<z3::model> m =
          fixed_tried ? std::nullopt : witnessWithFixedLaunch(solver, trackers);
      if (!m)
        m = witnessInOtherLaunches(solver, trackers);
      if (!m && !small_tried)
        m = witnessWithSmallFactors(solver, trackers, a, b);
      addCandidate(a, b, namedDefect(a, b, query, inter_block), m ? &*m : nullptr);
      // The other classes of a pair the solver could not decide are most
      // likely as hard: give them a quarter of the effort each.
      budget_.apply(solver, budget_.effort() / 4);
      pair_solver_rlimit_ = budget_.effort() / 4;
    } else {
      z3::expr_vector class_core = answer && answer->core ? *answer->core : solver.unsat_core();
      for (unsigned c = 0; c < class_core.size(); ++c)
        core.push_back(class_core[c]);
    }
    found |= verdict != z3::unsat;
    solver.pop();
  }
  solver.pop();
  if (core.size() > 0 && !found)
    addProof(a, b, core, trackers);
}

std::optional<v1::Imprecision> LaunchPairChecker::launchOverrun(z3::solver &solver,
                                                                const std::vector<z3::expr> &trackers) {
  if (!row_extents_) {
    row_extents_ = rowExtents(model_, symbols_);
    tile_extents_ = tileExtents(model_, symbols_);
  }
  if (row_extents_->empty() && tile_extents_.empty())
    return std::nullopt;
  solver.push();
  std::vector<std::string> widths, tiles;
  for (const RowExtent &extent : *row_extents_) {
    for (int t = 1; t <= 2; ++t)
      add(solver, symbols_.forThread(extent.fact, t));
    widths.push_back(extent.width);
  }
  // Rows first: a race past the end of a row is named as such even where
  // the tiles would rule it out too.
  bool within_rows = row_extents_->empty() || fitsLaunch(solver, trackers);
  if (within_rows)
    for (const TileExtent &extent : tile_extents_) {
      for (int t = 1; t <= 2; ++t)
        add(solver, symbols_.forThread(extent.fact, t));
      tiles.insert(tiles.end(), extent.arrays.begin(), extent.arrays.end());
    }
  bool within_tiles = !within_rows || tiles.empty() || fitsLaunch(solver, trackers);
  solver.pop();
  if (within_rows && within_tiles)
    return std::nullopt;
  v1::Imprecision overrun;
  if (!within_rows) {
    overrun.set_kind(v1::IMPRECISION_KIND_ROW_OVERRUN);
    overrun.set_detail("the race needs a thread whose column passes the width of its row (" +
                       quotedList(widths) +
                       "): no launch of the kernel is in view, and one with a thread per "
                       "element of each row has no such thread");
  } else {
    overrun.set_kind(v1::IMPRECISION_KIND_TILE_OVERRUN);
    overrun.set_detail("the race needs a thread outside the fixed-size tile it indexes by its "
                       "coordinates (" +
                       quotedList(tiles) +
                       "): no launch of the kernel is in view, and one whose blocks fit "
                       "the tile has no such thread");
  }
  return overrun;
}

bool LaunchPairChecker::fitsLaunch(z3::solver &solver, const std::vector<z3::expr> &trackers) {
  ++result_.queries;
  return solver.check(asVector(trackers)) != z3::unsat;
}

ClassQuery LaunchPairChecker::namedDefect(const MemoryAccess &a, const MemoryAccess &b,
                               ClassQuery query, bool inter_block) const {
  OrderingAttempt tried = sync_.attempt(a, b, inter_block);
  if (tried.kind == OrderingAttempt::Kind::None ||
      query.defect == v1::SYNC_DEFECT_ATOMIC_VS_PLAIN ||
      query.defect == v1::SYNC_DEFECT_VOLATILE_NOT_SYNCHRONIZING)
    return query;
  bool lock = tried.kind == OrderingAttempt::Kind::Lock;
  if (!tried.fenced) {
    query.defect = inter_block ? v1::SYNC_DEFECT_MISSING_DEVICE_FENCE
                               : v1::SYNC_DEFECT_MISSING_BLOCK_FENCE;
  } else if (!tried.scoped) {
    // The synchronization is there but stops at the block.
    query.race_class = v1::RACE_CLASS_SCOPED;
    query.insufficient_scope = v1::MEMORY_SCOPE_BLOCK;
    query.defect = lock ? v1::SYNC_DEFECT_LOCK_SCOPE_TOO_NARROW
                        : v1::SYNC_DEFECT_MISSING_DEVICE_FENCE;
  } else if (lock) {
    query.defect = v1::SYNC_DEFECT_DIFFERENT_LOCK_ADDRESSES;
  }
  return query;
}

void LaunchPairChecker::checkBarrier(const Barrier &barrier) {
  std::vector<z3::expr> trackers;
  z3::solver &solver = pairSolver(trackers);
  solver.push();
  add(solver, mustMeet(barrier));
  // In the same iteration of every enclosing loop, one thread reaches the
  // barrier and the other does not.
  for (const z3::expr &k : barrier.iterations)
    add(solver, symbols_.forThread(k, 1) == symbols_.forThread(k, 2));
  add(solver, symbols_.forThread(barrier.path_condition, 1));
  add(solver, !symbols_.forThread(barrier.path_condition, 2));
  ++result_.queries;
  if (solver.check(asVector(trackers)) != z3::sat) {
    solver.pop();
    return;
  }
  z3::model m = solver.get_model();
  solver.pop();
  v1::RaceCandidate candidate;
  candidate.set_kernel(model_.kernel_name);
  v1::AccessSite site;
  *site.mutable_location() = barrier.site.location();
  site.set_expression(barrier.site.expression());
  site.set_site_id(barrier.site.site_id());
  site.set_scope(barrier.site.scope());
  site.set_kernel(model_.kernel_name);
  *candidate.mutable_first() = site;
  *candidate.mutable_second() = site;
  candidate.set_race_class(v1::RACE_CLASS_BARRIER_DIVERGENCE);
  candidate.set_defect(v1::SYNC_DEFECT_DIVERGENT_BARRIER);
  *candidate.mutable_witness() = witness(m, nullptr);
  // Whether the barrier is reached is the defect itself: its guard is what
  // the witness is about.
  for (auto &imprecision : imprecisionsOf({barrier.path_condition}, {}))
    *candidate.add_imprecisions() = imprecision;
  result_.candidates.push_back(std::move(candidate));
}


CheckResult checkKernel(const KernelModel &model, SymbolSpace &symbols,
                        const LaunchContext &context,
                        const CheckOptions &options) {
  return LaunchPairChecker(model, symbols, context, options).run();
}

} // namespace gpurace::analyzer
