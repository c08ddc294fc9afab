#include "analyzer/check/PairChecker.h"

#include "analyzer/check/AcquireRelease.h"
#include "analyzer/check/Delinearization.h"
#include "analyzer/check/QueryBudget.h"
#include "analyzer/check/RangeSimplifier.h"
#include "analyzer/model/KernelModelBuilder.h"
#include "analyzer/report/Ranking.h"

#include <google/protobuf/util/message_differencer.h>

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

struct ClassQuery {
  v1::RaceClass race_class;
  v1::SyncDefect defect;
  v1::MemoryScope insufficient_scope = v1::MEMORY_SCOPE_UNSPECIFIED;
};

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

class Checker {
public:
  Checker(const KernelModel &model, SymbolSpace &symbols,
          const LaunchContext &context, const CheckOptions &options)
      : model_(model), symbols_(symbols), arith_(symbols.arith()),
        context_(context), options_(options), sync_(model, symbols),
        budget_(options.query_rlimit, options.query_timeout_ms, options.clock_stops) {
    collectConstants();
  }

  CheckResult run();

private:
  z3::context &ctx() const { return symbols_.context(); }
  z3::expr linearId(int thread) const;
  z3::expr sameBlock() const;
  // The thread's lane is one of the set bits of `mask`.
  z3::expr laneIn(uint32_t mask, int thread) const;
  // Both threads' lanes are in `group` (the same warp is checked apart).
  z3::expr joins(const LaneGroup &group) const;
  // The pairs of threads that must all reach `barrier` together.
  z3::expr mustMeet(const Barrier &barrier) const;
  z3::expr classConstraint(v1::RaceClass race_class) const;
  z3::expr concurrent(const MemoryAccess &a, const MemoryAccess &b,
                      v1::RaceClass race_class) const;
  z3::expr overlap(const MemoryAccess &a, const MemoryAccess &b) const;
  // Two threads of `race_class` reach a and b with nothing ordering them.
  z3::expr raceOfClass(const MemoryAccess &a, const MemoryAccess &b,
                       v1::RaceClass race_class) const;
  // `access`'s byte offset from the start of the buffer it shares with
  // `other`, before its symbols are renamed for a thread.
  z3::expr startOf(const MemoryAccess &access, const MemoryAccess &other) const;
  // Lemmas that decide overlaps of row-major offsets (Delinearization.h).
  std::vector<z3::expr> delinearization(const MemoryAccess &a, const MemoryAccess &b) const;
  // Lemmas that order the iterations of loops whose iterations synchronize
  // unequally (KernelModel::IterationSync), for two accesses in them.
  std::vector<z3::expr> iterationOrder(const MemoryAccess &a, const MemoryAccess &b) const;
  z3::expr pointerBase(const MemoryObject &object) const;
  // A witness searched for with the launch's host values fixed: for a pair
  // the solver could not decide, and first for a nonlinear one.
  std::optional<z3::model> witnessWithFixedLaunch(z3::solver &solver,
                                                  const std::vector<z3::expr> &trackers);
  // Whether the access's offset or path multiplies or divides two unknowns.
  bool nonlinear(const MemoryAccess &access);
  // One assignment of the launch's host values and parameters that the base
  // allows, as equalities; none where the solver finds none.
  const std::optional<z3::expr_vector> &fixedLaunch();
  // Whether the launch shows where a pointer parameter points in its buffer.
  bool placed(const MemoryObject &object) const;
  // Where two pointer parameters share a buffer only under a host
  // condition, that condition.
  std::optional<z3::expr> aliasCondition(const MemoryAccess &a, const MemoryAccess &b) const;
  bool mayAlias(const MemoryObject &a, const MemoryObject &b) const;
  // Whether no access of the kernel writes a buffer `object` may point
  // into in this launch: what it reads through it is the same for every
  // thread reading the same offset.
  bool unwrittenInLaunch(const MemoryObject &object) const;
  // Whether `a` and `b` are in distinct buffers only because a wrapper's
  // pointer parameters are assumed not to overlap.
  bool distinctByAssumption(const MemoryAccess &a, const MemoryAccess &b) const;
  // The race-freedom verdict of such a pair, with the assumption stated.
  void addAssumedDistinct(const MemoryAccess &a, const MemoryAccess &b);
  // A race-free verdict resting on the host facts that keep two pointer
  // parameters in separate buffers (LaunchContext::kept_apart).
  void addKeptApart(const MemoryAccess &a, const MemoryAccess &b);
  // A race-freedom verdict for the pair in this launch, with no assumption yet.
  v1::RaceFreedomProof proofOf(const MemoryAccess &a, const MemoryAccess &b) const;
  void addBase(z3::solver &solver, std::vector<z3::expr> &trackers) const;
  // What addBase asserts, pinned once: every pair's solver starts from it.
  std::vector<z3::expr> baseAssertions() const;
  // The solver pairs and barriers are checked on: the base is asserted
  // once and each query's constraints live in a scope of their own (a fresh
  // solver per query spent most of its time asserting the base again).
  z3::solver &pairSolver(std::vector<z3::expr> &trackers);
  z3::expr_vector asVector(const std::vector<z3::expr> &exprs) const;
  void checkPair(const MemoryAccess &a, const MemoryAccess &b);
  // An access through a parameter whose allocation the host code shows
  // stays inside it (an access outside is a memory error, not a race).
  void addInBounds(z3::solver &solver, const MemoryAccess &access, int thread) const;
  void checkBarrier(const Barrier &barrier);
  // The query with the defect the pair's attempted synchronization names.
  ClassQuery namedDefect(const MemoryAccess &a, const MemoryAccess &b,
                         ClassQuery query, bool inter_block) const;
  v1::Witness witness(const z3::model &m, const MemoryAccess *a) const;
  // The imprecisions behind the symbols of `addresses` and `guards`, one per
  // source; those that reach only the guards are marked guard-only.
  std::vector<v1::Imprecision> imprecisionsOf(const std::vector<z3::expr> &addresses,
                                              const std::vector<z3::expr> &guards) const;
  void addCandidate(const MemoryAccess &a, const MemoryAccess &b,
                    const ClassQuery &query, const z3::model *m);
  // `verdict` of the query in `solver`, once every term of the model's
  // powers_of_two that a witness gives another value is stated to be a
  // power of two (or zero), and every parameter range it breaks is stated,
  // and the query asked again.
  z3::check_result withFactsWitnessesBreak(z3::solver &solver, const std::vector<z3::expr> &trackers,
                                   z3::check_result verdict);
  // The query asked again with more effort, while the launch's
  // escalations last (QueryBudget): for a pair the delinearization lemmas
  // turn linear case by case, which more effort decides, where the
  // solver ran out (not the clock). Counted per launch, so that results
  // stay deterministic and a kernel of many hard pairs pays for few. Not
  // once the query has used its clock, `cap_ms`.
  z3::check_result withMoreEffort(z3::solver &solver, const std::vector<z3::expr> &trackers,
                                  std::chrono::steady_clock::time_point started, unsigned cap_ms);
  // Two writes whose threads store the same value wherever they race, in
  // the solver's current race constraints.
  bool storeSameValue(z3::solver &solver, const std::vector<z3::expr> &trackers,
                      const MemoryAccess &a, const MemoryAccess &b);
  // A write and a read of another thread that, wherever they race, ran
  // the same write before reading and stored the same value, with no other
  // write of the object between its own store and its read. The other
  // writes of the object, which must race with neither (checked once every
  // pair is: resolveReadsOfOwnStores), or nullopt.
  std::optional<std::vector<const MemoryAccess *>>
  readsWhatItStored(z3::solver &solver, const std::vector<z3::expr> &trackers,
                    const MemoryAccess &write, const MemoryAccess &read);
  // The loops in which `other`, after `read` in the body, runs again
  // before the read's next run: those that enclose the read but not
  // `write`. Only in their first iteration has the reader not run `other`
  // since it ran `write`.
  std::vector<z3::expr> loopsRunningBetween(const MemoryAccess &other, const MemoryAccess &write,
                                            const MemoryAccess &read) const;
  // Candidates judged benign because the reader read its own store, kept
  // only where no other write of the object races with the read or the
  // write.
  struct OwnStoreRead {
    size_t candidate;
    const MemoryAccess *write, *read;
    std::vector<const MemoryAccess *> other_writes;
  };
  std::vector<OwnStoreRead> own_store_reads_;
  // Pairs of accesses with at least one candidate, lower address first.
  std::set<std::pair<const MemoryAccess *, const MemoryAccess *>> racing_;
  bool racing(const MemoryAccess *a, const MemoryAccess *b) const {
    return racing_.count({std::min(a, b), std::max(a, b)}) > 0;
  }
  void resolveReadsOfOwnStores();
  void addProof(const MemoryAccess &a, const MemoryAccess &b,
                const z3::expr_vector &core,
                const std::vector<z3::expr> &trackers);

  // Adds `e` with the symbols the context pins to constants replaced by
  // them, so that a product of launch dims stays linear arithmetic.
  void add(z3::solver &solver, const z3::expr &e) const;
  // `e` with the host values the launch fixes put in.
  z3::expr pinned(const z3::expr &e) const;
  void collectConstants();
  // States the coordinates' ranges to the range simplifier.
  void boundCoordinates();

  const KernelModel &model_;
  SymbolSpace &symbols_;
  z3::expr_vector pinned_from_{symbols_.context()}, pinned_to_{symbols_.context()};
  // The pinned symbols that place a pointer parameter in its buffer, for
  // the delinearization lemmas.
  z3::expr_vector placed_from_{symbols_.context()}, placed_to_{symbols_.context()};
  std::vector<bool> fact_pinned_;
  // Rewrites div and mod over the coordinates' ranges (RangeSimplifier.h);
  // its cache fills as terms are pinned.
  mutable RangeSimplifier ranges_{symbols_.context()};
  // The symbol each pinned fact fixes, by the fact's index.
  std::map<size_t, z3::expr> pinned_symbol_;
  std::vector<z3::expr> base_;
  std::vector<z3::expr> base_trackers_;
  // The model's powers_of_two for threads 1 and 2, pinned, each once.
  std::vector<z3::expr> power_terms_;
  // The model's parameter_ranges, pinned.
  std::vector<z3::expr> parameter_ranges_;
  std::optional<z3::solver> pair_solver_;
  std::optional<z3::expr_vector> fixed_launch_;
  bool fixed_launch_searched_ = false;
  std::map<const MemoryAccess *, bool> nonlinear_;
  // The last undecided query stopped at the wall-clock cap, not the
  // (deterministic) effort limit.
  bool out_of_time_ = false;
  unsigned pair_solver_rlimit_ = 0;
  unsigned pair_solver_cap_ms_ = 0;
  const Arith &arith_;
  const LaunchContext &context_;
  CheckOptions options_;
  AcquireRelease sync_;
  QueryBudget budget_;
  CheckResult result_;
};

z3::expr Checker::linearId(int thread) const { return symbols_.linearThreadId(thread); }

z3::expr Checker::sameBlock() const {
  z3::expr same = ctx().bool_val(true);
  for (int axis = 0; axis < 3; ++axis)
    same = same && symbols_.forThread(symbols_.blockIdx(axis), 1) ==
                       symbols_.forThread(symbols_.blockIdx(axis), 2);
  return same;
}

z3::expr Checker::laneIn(uint32_t mask, int thread) const {
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

z3::expr Checker::joins(const LaneGroup &group) const {
  z3::expr warp_size = arith_.constant(options_.warp_size, kInt64);
  auto lane = [&](int thread) { return arith_.rem(linearId(thread), warp_size, false); };
  if (group.tile_size < options_.warp_size) {
    z3::expr size = arith_.constant(group.tile_size, kInt64);
    return arith_.div(lane(1), size, false) == arith_.div(lane(2), size, false);
  }
  return laneIn(group.mask, 1) && laneIn(group.mask, 2);
}

z3::expr Checker::mustMeet(const Barrier &barrier) const {
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

z3::expr Checker::classConstraint(v1::RaceClass race_class) const {
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

z3::expr Checker::concurrent(const MemoryAccess &a, const MemoryAccess &b,
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

z3::expr Checker::startOf(const MemoryAccess &access, const MemoryAccess &other) const {
  // Two pointer parameters into one buffer: offsets count from their own
  // starts, which lie where the host's pointer arithmetic puts them (a fact
  // of the launch), or anywhere.
  if (access.object != other.object)
    return arith_.add(access.offset, pointerBase(*access.object));
  return access.offset;
}

std::vector<z3::expr> Checker::delinearization(const MemoryAccess &a,
                                               const MemoryAccess &b) const {
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
  return delinearizationLemmas(side(a, b, 1), side(b, a, 2), terms);
}

std::vector<z3::expr> Checker::iterationOrder(const MemoryAccess &a,
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

z3::expr Checker::raceOfClass(const MemoryAccess &a, const MemoryAccess &b,
                              v1::RaceClass race_class) const {
  return classConstraint(race_class) && concurrent(a, b, race_class) &&
         !sync_.ordered(a, b, crossesBlocks(race_class));
}

z3::expr Checker::overlap(const MemoryAccess &a, const MemoryAccess &b) const {
  z3::expr start_a = symbols_.forThread(startOf(a, b), 1);
  z3::expr start_b = symbols_.forThread(startOf(b, a), 2);
  z3::expr end_a = arith_.add(start_a, arith_.constant(a.site.size_bytes(), kInt64));
  z3::expr end_b = arith_.add(start_b, arith_.constant(b.site.size_bytes(), kInt64));
  return arith_.less(start_a, end_b, true) && arith_.less(start_b, end_a, true);
}

z3::expr Checker::pointerBase(const MemoryObject &object) const {
  return symbols_.shared(pointerBaseSymbolName(object.name), kInt64);
}

bool Checker::placed(const MemoryObject &object) const {
  return object.kind == MemoryObject::Kind::PointerParameter &&
         context_.placed.count(object.parameter_index) > 0;
}

bool Checker::mayAlias(const MemoryObject &a, const MemoryObject &b) const {
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

bool Checker::unwrittenInLaunch(const MemoryObject &object) const {
  return std::none_of(model_.accesses.begin(), model_.accesses.end(),
                      [&](const MemoryAccess &access) {
                        return access.site.kind() != v1::ACCESS_KIND_READ &&
                               mayAlias(object, *access.object);
                      });
}

std::optional<z3::expr> Checker::aliasCondition(const MemoryAccess &a,
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

bool Checker::distinctByAssumption(const MemoryAccess &a, const MemoryAccess &b) const {
  using Kind = MemoryObject::Kind;
  return !options_.assume_aliasing && a.object != b.object &&
         a.object->kind == Kind::PointerParameter && b.object->kind == Kind::PointerParameter &&
         (context_.assumed_distinct.count(a.object->parameter_index) ||
          context_.assumed_distinct.count(b.object->parameter_index));
}

void Checker::collectConstants() {
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

void Checker::boundCoordinates() {
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

z3::expr Checker::pinned(const z3::expr &e) const {
  z3::expr copy = e;
  z3::expr out = pinned_from_.empty() ? copy : copy.substitute(pinned_from_, pinned_to_);
  return arith_.mode() == OverflowMode::Math ? ranges_.simplify(out) : out;
}

void Checker::add(z3::solver &solver, const z3::expr &e) const { solver.add(pinned(e)); }

std::vector<z3::expr> Checker::baseAssertions() const {
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

void Checker::addBase(z3::solver &solver, std::vector<z3::expr> &trackers) const {
  for (const z3::expr &assertion : base_)
    solver.add(assertion);
  trackers = base_trackers_;
}

z3::solver &Checker::pairSolver(std::vector<z3::expr> &trackers) {
  if (!pair_solver_) {
    pair_solver_.emplace(ctx());
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

z3::expr_vector Checker::asVector(const std::vector<z3::expr> &exprs) const {
  z3::expr_vector out(ctx());
  for (const z3::expr &e : exprs)
    out.push_back(e);
  return out;
}

CheckResult Checker::run() {
  for (size_t i = 0; i < model_.accesses.size(); ++i)
    for (size_t j = i; j < model_.accesses.size(); ++j)
      checkPair(model_.accesses[i], model_.accesses[j]);
  resolveReadsOfOwnStores();
  for (const Barrier &barrier : model_.barriers)
    if (barrier.scope != Barrier::Scope::Warp || barrier.lanes)
      checkBarrier(barrier);
  return std::move(result_);
}

void Checker::addInBounds(z3::solver &solver, const MemoryAccess &access,
                          int thread) const {
  // Without a launch, nothing but the code bounds the block's shape: a
  // thread past a fixed-size tile's side would access out of bounds, which
  // is not a race. With one, such a thread exists and causes the overlap.
  if (!context_.site && access.in_bounds)
    add(solver, symbols_.forThread(*access.in_bounds, thread));
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

void Checker::checkPair(const MemoryAccess &a, const MemoryAccess &b) {
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
  bool found = false;
  z3::expr_vector core(ctx());
  // A product of unknowns can keep the solver busy to its limit on a race
  // that one fixed launch shows at once, in a linear query.
  bool nonlinear_pair = nonlinear(a) || nonlinear(b);
  for (const ClassQuery &query : classes) {
    bool inter_block = crossesBlocks(query.race_class);
    solver.push();
    add(solver, raceOfClass(a, b, query.race_class));
    ++result_.queries;
    auto started = std::chrono::steady_clock::now();
    unsigned cap_ms = budget_.capMs(pair_solver_rlimit_);
    std::optional<z3::model> fixed;
    if (nonlinear_pair)
      fixed = witnessWithFixedLaunch(solver, trackers);
    z3::check_result verdict =
        fixed ? z3::sat
              : withFactsWitnessesBreak(solver, trackers, solver.check(asVector(trackers)));
    if (verdict == z3::unknown && (delinearized || !nonlinear_pair))
      verdict = withMoreEffort(solver, trackers, started, cap_ms);
    if (verdict == z3::sat) {
      z3::model m = fixed ? *fixed : solver.get_model();
      addCandidate(a, b, namedDefect(a, b, query, inter_block), &m);
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
          nonlinear_pair ? std::nullopt : witnessWithFixedLaunch(solver, trackers);
      addCandidate(a, b, namedDefect(a, b, query, inter_block), m ? &*m : nullptr);
      // The other classes of a pair the solver could not decide are most
      // likely as hard: give them a quarter of the effort each.
      budget_.apply(solver, budget_.effort() / 4);
      pair_solver_rlimit_ = budget_.effort() / 4;
    } else {
      z3::expr_vector class_core = solver.unsat_core();
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

z3::check_result Checker::withFactsWitnessesBreak(z3::solver &solver,
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
    for (size_t i = 0; i < terms.size(); ++i)
      for (size_t j = i + 1; j < terms.size(); ++j) {
        if (!values[i] || !values[j] || *values[i] == *values[j] ||
            2 * *values[i] <= *values[j] || 2 * *values[j] <= *values[i] ||
            !related.insert({i, j}).second)
          continue;
        solver.add(terms[i] == terms[j] || two * terms[i] <= terms[j] || two * terms[j] <= terms[i]);
        refined = true;
      }
    for (size_t i = 0; i < terms.size() && !refined; ++i)
      if (values[i] && (*values[i] & (*values[i] - 1)) != 0 && exact.insert(i).second) {
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

z3::check_result Checker::withMoreEffort(z3::solver &solver, const std::vector<z3::expr> &trackers,
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

bool Checker::storeSameValue(z3::solver &solver, const std::vector<z3::expr> &trackers,
                             const MemoryAccess &a, const MemoryAccess &b) {
  // Plain writes, or an exchange (`atomicExch(&flag, 1)`) beside them.
  auto stores = [](const MemoryAccess &access) {
    return access.site.kind() == v1::ACCESS_KIND_WRITE ||
           (access.site.kind() == v1::ACCESS_KIND_ATOMIC &&
            access.site.atomic_op() == v1::ATOMIC_OP_EXCH);
  };
  if (!stores(a) || !stores(b) || !a.stored || !b.stored)
    return false;
  z3::expr first = symbols_.forThread(*a.stored, 1);
  z3::expr second = symbols_.forThread(*b.stored, 2);
  if (!z3::eq(first.get_sort(), second.get_sort()))
    return false;
  solver.push();
  add(solver, first != second);
  ++result_.queries;
  bool same = solver.check(asVector(trackers)) == z3::unsat;
  solver.pop();
  return same;
}

std::optional<std::vector<const MemoryAccess *>>
Checker::readsWhatItStored(z3::solver &solver, const std::vector<z3::expr> &trackers,
                           const MemoryAccess &write, const MemoryAccess &read) {
  if (write.site.kind() != v1::ACCESS_KIND_WRITE || read.site.kind() != v1::ACCESS_KIND_READ ||
      !write.stored || write.order >= read.order ||
      write.iterations.size() > read.iterations.size() ||
      !std::equal(write.iterations.begin(), write.iterations.end(), read.iterations.begin(),
                  [](const z3::expr &x, const z3::expr &y) { return z3::eq(x, y); }))
    return std::nullopt;
  // The reader's run of the write in the same iterations is its last store
  // there when no other write of the object comes between: none after the
  // write and before the read in the body, and none later in a loop that
  // encloses the read but not the write, unless the read is in that loop's
  // first iteration.
  std::vector<const MemoryAccess *> others;
  std::vector<z3::expr> first_iterations;
  for (const MemoryAccess &other : model_.accesses) {
    if (&other == &write || other.object != write.object ||
        other.site.kind() == v1::ACCESS_KIND_READ)
      continue;
    if (other.order > write.order && other.order < read.order)
      return std::nullopt;
    for (const z3::expr &k : loopsRunningBetween(other, write, read))
      first_iterations.push_back(k);
    others.push_back(&other);
  }
  auto on = [this](const z3::expr &e, int thread) { return symbols_.forThread(e, thread); };
  // Thread 1 writes, thread 2 reads; thread 2 ran the write earlier, to the
  // word it reads, storing what thread 1 stores.
  z3::expr stored_first = on(write.path_condition, 2) && on(write.offset, 2) == on(read.offset, 2) &&
                          on(*write.stored, 2) == on(*write.stored, 1);
  for (const z3::expr &k : first_iterations)
    stored_first = stored_first && on(k, 2) == 0;
  solver.push();
  add(solver, !stored_first);
  ++result_.queries;
  bool same = solver.check(asVector(trackers)) == z3::unsat;
  solver.pop();
  if (!same)
    return std::nullopt;
  return others;
}

std::vector<z3::expr> Checker::loopsRunningBetween(const MemoryAccess &other,
                                                  const MemoryAccess &write,
                                                  const MemoryAccess &read) const {
  std::vector<z3::expr> loops;
  if (other.order < read.order)
    return loops;
  for (size_t i = write.iterations.size(); i < read.iterations.size(); ++i)
    for (const z3::expr &k : other.iterations)
      if (z3::eq(k, read.iterations[i]))
        loops.push_back(k);
  return loops;
}

void Checker::resolveReadsOfOwnStores() {
  for (const OwnStoreRead &judged : own_store_reads_)
    for (const MemoryAccess *other : judged.other_writes)
      if (racing(other, judged.read) || racing(other, judged.write)) {
        result_.candidates[judged.candidate].clear_benign();
        break;
      }
}

std::optional<z3::model>
Checker::witnessWithFixedLaunch(z3::solver &solver, const std::vector<z3::expr> &trackers) {
  // Products of thread coordinates and host values (`y * stride`) make a
  // query nonlinear; with the host values fixed to one assignment the launch
  // allows, it is linear. A model found that way is a real witness.
  const std::optional<z3::expr_vector> &launch = fixedLaunch();
  if (!launch)
    return std::nullopt;
  solver.push();
  for (const z3::expr &value : *launch)
    solver.add(value);
  std::optional<z3::model> witness;
  if (withFactsWitnessesBreak(solver, trackers, solver.check(asVector(trackers))) == z3::sat)
    witness = solver.get_model();
  solver.pop();
  return witness;
}

namespace {

// Whether `e` multiplies two non-constant terms or divides by one.
bool hasNonlinearTerm(const z3::expr &e, std::set<unsigned> &seen) {
  if (!e.is_app() || !seen.insert(e.id()).second)
    return false;
  Z3_decl_kind kind = e.decl().decl_kind();
  unsigned unknowns = 0;
  for (unsigned i = 0; i < e.num_args(); ++i)
    unknowns += !e.arg(i).is_numeral();
  if ((kind == Z3_OP_MUL || kind == Z3_OP_BMUL) && unknowns >= 2)
    return true;
  if ((kind == Z3_OP_DIV || kind == Z3_OP_IDIV || kind == Z3_OP_MOD || kind == Z3_OP_REM ||
       kind == Z3_OP_BSDIV || kind == Z3_OP_BUDIV || kind == Z3_OP_BSREM ||
       kind == Z3_OP_BUREM || kind == Z3_OP_BSMOD) &&
      !e.arg(1).is_numeral())
    return true;
  for (unsigned i = 0; i < e.num_args(); ++i)
    if (hasNonlinearTerm(e.arg(i), seen))
      return true;
  return false;
}

} // namespace

bool Checker::nonlinear(const MemoryAccess &access) {
  auto [it, inserted] = nonlinear_.try_emplace(&access, false);
  if (inserted) {
    std::set<unsigned> seen;
    it->second = hasNonlinearTerm(access.offset, seen) ||
                 hasNonlinearTerm(access.path_condition, seen);
  }
  return it->second;
}

const std::optional<z3::expr_vector> &Checker::fixedLaunch() {
  // The base is the same for every pair: its one assignment is found once.
  if (fixed_launch_searched_)
    return fixed_launch_;
  fixed_launch_searched_ = true;
  z3::solver launch(ctx());
  budget_.apply(launch, budget_.effort() / 4);
  std::vector<z3::expr> launch_trackers;
  addBase(launch, launch_trackers);
  if (launch.check(asVector(launch_trackers)) != z3::sat)
    return fixed_launch_;
  auto hostValues = [](const z3::model &values) {
    std::vector<z3::func_decl> symbols;
    for (unsigned i = 0; i < values.num_consts(); ++i) {
      z3::func_decl symbol = values.get_const_decl(i);
      std::string name = symbol.name().str();
      if (name.rfind("param:", 0) == 0 || name.rfind("host:", 0) == 0)
        symbols.push_back(symbol);
    }
    return symbols;
  };
  z3::model values = launch.get_model();
  // Small values where the base allows them: a witness then needs no
  // huge sizes, and many threads share a division of the work (`gid /
  // per_division`), which races across divisions need.
  launch.push();
  for (const z3::func_decl &symbol : hostValues(values))
    if (symbol.range().is_int())
      launch.add(symbol() >= -64 && symbol() <= 64);
  if (launch.check(asVector(launch_trackers)) == z3::sat)
    values = launch.get_model();
  launch.pop();
  fixed_launch_.emplace(ctx());
  for (const z3::func_decl &symbol : hostValues(values))
    fixed_launch_->push_back(symbol() == values.get_const_interp(symbol));
  return fixed_launch_;
}

ClassQuery Checker::namedDefect(const MemoryAccess &a, const MemoryAccess &b,
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

void Checker::checkBarrier(const Barrier &barrier) {
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

std::vector<v1::Imprecision>
Checker::imprecisionsOf(const std::vector<z3::expr> &addresses,
                        const std::vector<z3::expr> &guards) const {
  std::map<std::string, v1::Imprecision> by_source;
  auto collect = [&](const std::set<std::string> &names, bool guard) {
    for (const std::string &name : names) {
      auto it = model_.imprecisions.find(name);
      if (it == model_.imprecisions.end()) {
        it = context_.imprecisions.find(name);
        if (it == context_.imprecisions.end())
          continue;
      }
      v1::Imprecision imprecision = it->second;
      imprecision.set_guard_only(guard);
      // An address imprecision of a source outweighs a guard-only one.
      by_source.emplace(imprecisionSource(imprecision), imprecision);
    }
  };
  // A thread's coordinate ranges over the launch's dims: an address that
  // depends on blockIdx.x depends on gridDim.x too.
  auto withDims = [](std::set<std::string> names) {
    std::set<std::string> dims;
    for (const std::string &name : names)
      for (auto [coordinate, dim] : {std::pair{"threadIdx.", "blockDim."},
                                     std::pair{"blockIdx.", "gridDim."}})
        if (name.rfind(coordinate, 0) == 0 && name.size() > std::strlen(coordinate))
          dims.insert(dim + name.substr(std::strlen(coordinate), 1));
    names.insert(dims.begin(), dims.end());
    return names;
  };
  collect(withDims(symbolNames(addresses)), false);
  collect(withDims(symbolNames(guards)), true);
  std::vector<v1::Imprecision> out;
  for (auto &[source, imprecision] : by_source)
    out.push_back(std::move(imprecision));
  // Report in source order, as the text shows them.
  std::stable_sort(out.begin(), out.end(), [](const auto &x, const auto &y) {
    return std::make_tuple(x.guard_only(), x.location().line(), x.location().column()) <
           std::make_tuple(y.guard_only(), y.location().line(), y.location().column());
  });
  return out;
}

v1::Witness Checker::witness(const z3::model &m, const MemoryAccess *a) const {
  v1::Witness w;

  auto value = [&](const z3::expr &e) -> int64_t {
    auto v = Arith::numeral(m.eval(pinned(e), true), false);
    return v ? *v : 0;
  };
  auto fill = [&](v1::ThreadCoord &coord, int thread) {
    coord.mutable_thread_idx()->set_x(value(symbols_.forThread(symbols_.threadIdx(0), thread)));
    coord.mutable_thread_idx()->set_y(value(symbols_.forThread(symbols_.threadIdx(1), thread)));
    coord.mutable_thread_idx()->set_z(value(symbols_.forThread(symbols_.threadIdx(2), thread)));
    coord.mutable_block_idx()->set_x(value(symbols_.forThread(symbols_.blockIdx(0), thread)));
    coord.mutable_block_idx()->set_y(value(symbols_.forThread(symbols_.blockIdx(1), thread)));
    coord.mutable_block_idx()->set_z(value(symbols_.forThread(symbols_.blockIdx(2), thread)));
  };
  fill(*w.mutable_first(), 1);
  fill(*w.mutable_second(), 2);
  w.mutable_block_dim()->set_x(value(symbols_.blockDim(0)));
  w.mutable_block_dim()->set_y(value(symbols_.blockDim(1)));
  w.mutable_block_dim()->set_z(value(symbols_.blockDim(2)));
  w.mutable_grid_dim()->set_x(value(symbols_.gridDim(0)));
  w.mutable_grid_dim()->set_y(value(symbols_.gridDim(1)));
  w.mutable_grid_dim()->set_z(value(symbols_.gridDim(2)));
  for (const auto &[name, symbol] : model_.parameters) {
    z3::expr evaluated = m.eval(pinned(symbol), true);
    auto v = Arith::numeral(evaluated, true);
    v1::NamedValue *param = w.add_parameters();
    param->set_name(name);
    // An unsigned 64-bit value past INT64_MAX (a texture handle) is
    // printed whole.
    param->set_value(v                        ? std::to_string(*v)
                     : evaluated.is_numeral() ? evaluated.get_decimal_string(0)
                                              : "?");
  }
  if (a) {
    auto offset =
        Arith::numeral(m.eval(pinned(symbols_.forThread(a->offset, 1)), true), true);
    if (offset) {
      w.set_byte_offset(*offset);
      if (a->site.size_bytes() > 0)
        w.set_index(std::to_string(*offset / static_cast<int64_t>(a->site.size_bytes())));
    }
    for (size_t i = 0; i < a->iterations.size(); ++i) {
      for (int t = 1; t <= 2; ++t) {
        auto k = Arith::numeral(
            m.eval(pinned(symbols_.forThread(a->iterations[i], t)), true), true);
        v1::NamedValue *local = t == 1 ? w.add_first_locals() : w.add_second_locals();
        local->set_name("iteration of loop " + std::to_string(i + 1));
        local->set_value(k ? std::to_string(*k) : "?");
      }
    }
  }
  return w;
}

namespace {

// Adds `assumption` unless the list already says the same: facts about
// different host symbols that print alike (one variable read at two
// launches) are one statement to the reader.
void addOnce(google::protobuf::RepeatedPtrField<v1::Assumption> &list,
             const v1::Assumption &assumption) {
  for (const v1::Assumption &held : list)
    if (google::protobuf::util::MessageDifferencer::Equals(held, assumption))
      return;
  *list.Add() = assumption;
}

} // namespace

void Checker::addCandidate(const MemoryAccess &a, const MemoryAccess &b,
                           const ClassQuery &query, const z3::model *m) {
  v1::RaceCandidate candidate;
  candidate.set_kernel(model_.kernel_name);
  *candidate.mutable_first() = a.site;
  *candidate.mutable_second() = b.site;
  candidate.set_race_class(query.race_class);
  candidate.set_defect(query.defect);
  candidate.set_insufficient_scope(query.insufficient_scope);
  candidate.set_status(v1::RACE_STATUS_POTENTIAL);
  if (m)
    *candidate.mutable_witness() = witness(*m, &a);
  for (auto &imprecision :
       imprecisionsOf({a.offset, b.offset}, {a.path_condition, b.path_condition}))
    *candidate.add_imprecisions() = imprecision;
  if (!m) {
    v1::Imprecision *timeout = candidate.add_imprecisions();
    timeout->set_kind(v1::IMPRECISION_KIND_SOLVER_UNDECIDED);
    timeout->set_detail(out_of_time_
                            ? "the solver ran out of time on this pair before its effort "
                              "limit (--query-timeout-ms): a verdict that may differ on a "
                              "busier or faster machine"
                            : "the solver ran out of effort on this pair (--query-effort)");
  }
  if (a.object != b.object && !(placed(*a.object) && placed(*b.object))) {
    v1::Imprecision *alias = candidate.add_imprecisions();
    alias->set_kind(v1::IMPRECISION_KIND_UNKNOWN_ALIASING);
    alias->set_detail("'" + a.object->name + "' and '" + b.object->name +
                      "' may point into the same buffer");
  }
  for (const Fact &fact : context_.facts) {
    v1::Assumption used = fact.assumption;
    used.set_role(v1::Assumption::ROLE_USED);
    addOnce(*candidate.mutable_assumptions(), used);
  }
  racing_.insert({std::min(&a, &b), std::max(&a, &b)});
  result_.candidates.push_back(std::move(candidate));
}

v1::RaceFreedomProof Checker::proofOf(const MemoryAccess &a, const MemoryAccess &b) const {
  v1::RaceFreedomProof proof;
  proof.set_kernel(model_.kernel_name);
  *proof.mutable_first() = a.site;
  *proof.mutable_second() = b.site;
  if (context_.site)
    *proof.mutable_launch_site() = *context_.site;
  return proof;
}

void Checker::addAssumedDistinct(const MemoryAccess &a, const MemoryAccess &b) {
  v1::RaceFreedomProof proof = proofOf(a, b);
  v1::Assumption *assumption = proof.add_assumptions();
  assumption->set_kind(v1::HOST_FACT_KIND_ANALYSIS);
  assumption->set_role(v1::Assumption::ROLE_REQUIRED_FOR_RACE_FREEDOM);
  assumption->set_description("assumes '" + a.object->name + "' and '" + b.object->name +
                              "' do not overlap (no caller of the launching function is "
                              "visible; --assume-aliasing checks them as overlapping)");
  if (context_.site)
    *assumption->mutable_location() = context_.site->location();
  result_.proofs.push_back(std::move(proof));
}

namespace {

// Whether `symbol` occurs in `term`, each shared subterm looked at once.
bool mentions(const z3::expr &term, const z3::expr &symbol,
              std::unordered_set<unsigned> &seen) {
  if (z3::eq(term, symbol))
    return true;
  if (!term.is_app() || !seen.insert(term.id()).second)
    return false;
  for (unsigned i = 0; i < term.num_args(); ++i)
    if (mentions(term.arg(i), symbol, seen))
      return true;
  return false;
}

} // namespace

void Checker::addKeptApart(const MemoryAccess &a, const MemoryAccess &b) {
  using Kind = MemoryObject::Kind;
  if (a.object == b.object || a.object->kind != Kind::PointerParameter ||
      b.object->kind != Kind::PointerParameter)
    return;
  int i = a.object->parameter_index, j = b.object->parameter_index;
  auto found = context_.kept_apart.find({std::min(i, j), std::max(i, j)});
  if (found == context_.kept_apart.end())
    return;
  v1::RaceFreedomProof proof = proofOf(a, b);
  for (v1::Assumption assumption : found->second) {
    assumption.set_role(v1::Assumption::ROLE_REQUIRED_FOR_RACE_FREEDOM);
    *proof.add_assumptions() = std::move(assumption);
  }
  result_.proofs.push_back(std::move(proof));
}

void Checker::addProof(const MemoryAccess &a, const MemoryAccess &b,
                       const z3::expr_vector &core,
                       const std::vector<z3::expr> &trackers) {
  v1::RaceFreedomProof proof = proofOf(a, b);
  std::set<size_t> needed;
  for (unsigned i = 0; i < core.size(); ++i)
    for (size_t t = 0; t < trackers.size(); ++t)
      if (z3::eq(core[i], trackers[t]))
        needed.insert(t);
  // A fact that fixes a symbol to a number is substituted, never tracked:
  // it is needed where a needed fact names its symbol.
  std::set<size_t> fixed;
  for (size_t t : needed)
    for (const auto &[index, symbol] : pinned_symbol_)
      if (std::unordered_set<unsigned> seen; mentions(context_.facts[t].term, symbol, seen))
        fixed.insert(index);
  needed.insert(fixed.begin(), fixed.end());
  for (size_t t : needed) {
    v1::Assumption assumption = context_.facts[t].assumption;
    assumption.set_role(v1::Assumption::ROLE_REQUIRED_FOR_RACE_FREEDOM);
    addOnce(*proof.mutable_assumptions(), assumption);
  }
  result_.proofs.push_back(std::move(proof));
}

} // namespace

CheckResult checkKernel(const KernelModel &model, SymbolSpace &symbols,
                        const LaunchContext &context,
                        const CheckOptions &options) {
  return Checker(model, symbols, context, options).run();
}

} // namespace gpurace::analyzer
