//===- LaunchPairChecker.h - the pair checks of one launch ------*- C++ -*-===//
//
// What checkKernel (PairChecker.h) keeps for one kernel in one launch
// context: a solver with the launch's facts asserted once, the pairs and
// barriers asked of it, and the candidates and proofs they give. Its parts
// are in files of their own: the race queries (PairChecker.cpp), what an
// undecided query tries next (PairEscalation.cpp), races judged benign
// because both threads store the same value (BenignPairs.cpp), and the
// witnesses, candidates and proofs reported (PairFindings.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_CHECK_LAUNCHPAIRCHECKER_H
#define GPURACE_ANALYZER_CHECK_LAUNCHPAIRCHECKER_H

#include "analyzer/check/AcquireRelease.h"
#include "analyzer/check/PairChecker.h"
#include "analyzer/check/QueryBudget.h"
#include "analyzer/check/RangeSimplifier.h"
#include "analyzer/check/LaunchFit.h"

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace gpurace::analyzer {

// One race class a pair is asked about, with the defect its race would be.
struct ClassQuery {
  v1::RaceClass race_class;
  v1::SyncDefect defect;
  v1::MemoryScope insufficient_scope = v1::MEMORY_SCOPE_UNSPECIFIED;
};

class LaunchPairChecker {
public:
  LaunchPairChecker(const KernelModel &model, SymbolSpace &symbols,
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
  std::vector<z3::expr> delinearization(const MemoryAccess &a, const MemoryAccess &b);
  // Whether the launch's facts make launch-wide `value` a multiple of
  // `divisor` (asked once per value and divisor, at a small effort).
  bool dividesExactly(const z3::expr &value, const z3::expr &divisor);
  // Lemmas that order the iterations of loops whose iterations synchronize
  // unequally (KernelModel::IterationSync), for two accesses in them.
  std::vector<z3::expr> iterationOrder(const MemoryAccess &a, const MemoryAccess &b) const;
  // For each one-bit flip of the kernel (KernelModel::bit_flips): two
  // threads that flip the same bit into the same result flipped the same
  // value.
  std::vector<z3::expr> bitFlipInverses() const;
  // A verdict on the query in `solver` that is not the solver's own last
  // check: a witness where sat, the facts it needed where unsat.
  struct Answer {
    z3::check_result verdict;
    std::optional<z3::model> witness;
    std::optional<z3::expr_vector> core;
  };
  // The query asked twice: with the two threads in the same iteration of
  // every loop that encloses both accesses, and in different iterations of
  // one. Sat with the witness of a case that is sat, unsat with the union
  // of the cores where both are; nullopt where the accesses share no loop
  // or a case is undecided.
  std::optional<Answer> iterationByIteration(z3::solver &solver,
                                             const std::vector<z3::expr> &trackers,
                                             const MemoryAccess &a, const MemoryAccess &b);
  z3::expr pointerBase(const MemoryObject &object) const;
  // A witness searched for with the launch's host values fixed: for a pair
  // the solver could not decide, and first for a nonlinear one that fixing
  // the launch makes linear.
  std::optional<z3::model> witnessWithFixedLaunch(z3::solver &solver,
                                                  const std::vector<z3::expr> &trackers);
  // The same in the next few launches the base allows (otherLaunch), for
  // a pair every other attempt left undecided.
  std::optional<z3::model> witnessInOtherLaunches(z3::solver &solver,
                                                  const std::vector<z3::expr> &trackers);
  // The same with the launch values that multiply or divide the pair's
  // thread values (`j * cols`) fixed to small numbers, one assignment after
  // another, the rest of the launch left to the solver: the query is then
  // linear. A race through a wrap-around (a mirrored tall matrix, a row
  // that spills into the next) needs a stride that is small next to the
  // block, which launches the host allows at random rarely have.
  std::optional<z3::model> witnessWithSmallFactors(z3::solver &solver,
                                                   const std::vector<z3::expr> &trackers,
                                                   const MemoryAccess &a, const MemoryAccess &b);
  // Launch values, not pinned by a fact, that a nonlinear term of the
  // accesses' offsets or paths reads.
  std::vector<z3::expr> nonlinearFactors(const MemoryAccess &a, const MemoryAccess &b) const;
  static constexpr size_t kSmallFactorTries = 12;
  // The effort of a query with launch values put in (other launches,
  // small factors): a share of the pair's, with a floor.
  unsigned fixedQueryEffort() const;
  static constexpr unsigned kFixedQueryEffortShare = 8;
  static constexpr unsigned kFixedQueryLeastEffort = 50000;
  // The same asked of a solver of its own, the values put into the query:
  // linear where they were the factors of its products.
  std::optional<z3::model> witnessInLaunchAfresh(const z3::solver &solver,
                                                 const std::vector<z3::expr> &trackers,
                                                 const z3::expr_vector &launch, unsigned effort);
  // A witness of the query on `solver` with the launch's values fixed to
  // `launch`; the solver is left as it was.
  std::optional<z3::model> witnessInLaunch(z3::solver &solver,
                                           const std::vector<z3::expr> &trackers,
                                           const z3::expr_vector &launch);
  // Whether the access's offset or path multiplies or divides two unknowns.
  bool nonlinear(const MemoryAccess &access);
  // Whether they no longer do once the launch is fixed (fixedLaunch): the
  // products are of launch values (`y * stride`), not of values the
  // threads compute (a scan's `offset * (2 * tid + 1)`), and a witness
  // with the launch fixed is found by linear arithmetic.
  bool linearWithLaunchFixed(const MemoryAccess &access);
  // One assignment of the launch's host values and parameters that the base
  // allows, as equalities; none where the solver finds none.
  const std::optional<z3::expr_vector> &fixedLaunch();
  // The k-th launch after fixedLaunch (k from 1) that the base allows, each
  // giving the kernel's parameters or sizes values no earlier one gave
  // them all; null where the solver finds none.
  const z3::expr_vector *otherLaunch(size_t k);
  static constexpr size_t kOtherLaunches = 3;
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
  static constexpr unsigned kSimplexArithmetic = 2;
  // The effort of a query asked afresh, in multiples of the first's.
  static constexpr unsigned kAfreshEffort = 4;
  // The solver pairs and barriers are checked on: the base is asserted
  // once and each query's constraints live in a scope of their own (a fresh
  // solver per query spent most of its time asserting the base again).
  z3::solver &pairSolver(std::vector<z3::expr> &trackers);
  z3::expr_vector asVector(const std::vector<z3::expr> &exprs) const;
  void checkPair(const MemoryAccess &a, const MemoryAccess &b);
  // An access through a parameter whose allocation the host code shows
  // stays inside it (an access outside is a memory error, not a race);
  // with no launch in view, so does one to a fixed-size array.
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
  // What a solver that has checked nothing before answers to the query
  // `solver` left undecided, with more effort (kAfreshEffort).
  Answer askAfresh(const z3::solver &solver, const std::vector<z3::expr> &trackers);
  // The same query after Z3 has solved its equations for their variables
  // and put the solutions in (`stride == pitch / 2` with the other facts,
  // the loops' trip counts): what the incremental solvers cannot do, and
  // what turns a pitched copy's parity argument into a few milliseconds.
  // Its unsat core is found by leaving facts out one at a time, since the
  // elimination keeps no record of the facts it used.
  Answer askPreprocessed(const z3::solver &solver, const std::vector<z3::expr> &trackers);
  unsigned preprocessed_in_full_ = 4;
  // The query asked again with more effort, while the launch's
  // escalations last (QueryBudget): for a pair the delinearization lemmas
  // turn linear case by case, which more effort decides, where the
  // solver ran out (not the clock). Counted per launch, so that results
  // stay deterministic and a kernel of many hard pairs pays for few. Not
  // once the query has used its clock, `cap_ms`.
  z3::check_result withMoreEffort(z3::solver &solver, const std::vector<z3::expr> &trackers,
                                  std::chrono::steady_clock::time_point started, unsigned cap_ms);
  // The access lies within its fixed-size array (MemoryObject::bytes).
  z3::expr withinObject(const MemoryAccess &access, int thread) const;
  // Where `found` has the race in `solver` past the end of a fixed-size
  // array (an element thousands past a 257-element array), a witness
  // within the arrays, if there is one. A race only out of bounds (a scan
  // whose offset reaches 0, every thread at s[-1]) keeps the model it has.
  std::optional<z3::model> witnessWithinArrays(z3::solver &solver,
                                               const std::vector<z3::expr> &trackers,
                                               const MemoryAccess &a, const MemoryAccess &b,
                                               const z3::model &found);
  // With no launch in view: where the race in `solver` is one only a
  // thread past the end of its row, or outside a fixed-size tile, has
  // (LaunchFit.h), the note that says so; nullopt where a launch that fits
  // the data has it too.
  std::optional<v1::Imprecision> launchOverrun(z3::solver &solver,
                                               const std::vector<z3::expr> &trackers);
  // Whether the race in `solver` still holds (or is left undecided).
  bool fitsLaunch(z3::solver &solver, const std::vector<z3::expr> &trackers);
  // Computed with the first race a kernel with no launch in view has.
  std::optional<std::vector<RowExtent>> row_extents_;
  std::vector<TileExtent> tile_extents_;
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
  // Holds the base and a clause ruling out each launch found so far.
  std::optional<z3::solver> launch_search_;
  std::vector<z3::expr> launch_search_trackers_;
  std::vector<z3::expr_vector> other_launches_;
  bool other_launches_exhausted_ = false;
  std::map<const MemoryAccess *, bool> nonlinear_;
  std::map<const MemoryAccess *, bool> linear_with_launch_fixed_;
  std::map<std::pair<unsigned, unsigned>, bool> divides_exactly_;
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

} // namespace gpurace::analyzer

#endif
