#include "analyzer/perf/PerfChecker.h"

#include "analyzer/perf/WarpCost.h"
#include "analyzer/model/TermWalk.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace gpurace::analyzer {

namespace {

// Bank and sector questions are mod and div over the thread coordinates,
// whose proofs take Z3 several times a race pair's effort (and vary with the
// order terms were made in): each query gets this many times --query-effort.
constexpr unsigned kEffortPerQuery = 4;

// How many times the search asks for a worse witness after the first.
constexpr int kWorseWitnessRounds = 6;

bool isSharedAccess(const MemoryAccess &a) {
  return a.object && a.object->space == v1::MEMORY_SPACE_SHARED;
}

bool isGlobalAccess(const MemoryAccess &a) {
  return a.object && a.object->space == v1::MEMORY_SPACE_GLOBAL &&
         (a.object->kind == MemoryObject::Kind::PointerParameter ||
          a.object->kind == MemoryObject::Kind::DeviceGlobal);
}

// The lanes one warp's access involves, solved with one witness's launch.
struct WarpLanes {
  std::vector<LaneOffset> offsets;
  std::map<unsigned, v1::ThreadCoord> threads;
  v1::ThreadCoord first_lane;
};

// One lane of the witness warp, with its bank or sector.
void addLane(v1::PerfFinding &finding, const WarpLanes &lanes, const LaneOffset &lane,
             int64_t unit) {
  v1::LaneAccess *access = finding.add_lanes();
  access->set_lane(lane.lane);
  *access->mutable_thread() = lanes.threads.at(lane.lane);
  access->set_byte_offset(lane.offset);
  access->set_unit(unit);
}

class WarpCostChecker {
public:
  WarpCostChecker(const KernelModel &model, SymbolSpace &symbols, const LaunchContext &context,
                  const PerfCheckOptions &options);
  std::vector<v1::PerfFinding> run();

private:
  z3::context &ctx() const { return symbols_.context(); }
  z3::expr constant(int64_t value) const { return arith_.constant(value, kInt64); }
  z3::expr at(const z3::expr &e, int thread) const { return symbols_.forThread(e, thread); }
  // Launch facts that fix a symbol to a number are substituted rather than
  // asserted: `y * blockDim.x` with blockDim.x fixed is linear.
  z3::expr pin(const z3::expr &e) const;
  void add(const z3::expr &e) { solver_.add(pin(e)); }
  int64_t value(const z3::model &m, const z3::expr &e) const;
  z3::expr lane(int thread) const;
  z3::expr warp(int thread) const;
  z3::expr sameBlock() const;
  z3::expr offsetOf(const MemoryAccess &a, int thread) const;
  // Threads 1 and 2: distinct lanes of one warp executing the same dynamic
  // instance of `a` (same iterations, same synchronization so far).
  z3::expr sameInstance(const MemoryAccess &a) const;
  // The over-approximated loop values and unfollowed launch values the
  // address uses, all uniform; none when the address is not exact enough
  // to price.
  std::optional<std::vector<z3::expr>> uniformValues(const MemoryAccess &a) const;
  std::optional<z3::model> solve(const z3::expr &query, bool &undecided);
  // Thread 1 in the witness's iterations, loop values and block shape.
  z3::expr sameInstanceAs(const MemoryAccess &a, const z3::model &m) const;
  // The active lanes of thread 1's warp in the witness `m`, each solved
  // for with the witness's launch values and iterations.
  WarpLanes warpLanes(const MemoryAccess &a, const z3::model &m);
  std::optional<v1::PerfFinding> checkBanks(const MemoryAccess &a);
  std::optional<v1::PerfFinding> checkSectors(const MemoryAccess &a);
  v1::PerfFinding findingFor(const MemoryAccess &a, v1::PerfKind kind) const;
  // Kernel parameters and block dimensions that `a`'s address mentions and
  // no launch fact fixes.
  std::vector<std::pair<std::string, z3::expr>> freeLaunchValues(const MemoryAccess &a) const;
  // For each free launch value, the first of a few conditions on it under
  // which `costly` (the cost query) is UNSAT while the access still runs:
  // the values for which the access is free, whatever the others are.
  void addFreeConditions(const MemoryAccess &a, const z3::expr &costly,
                         const z3::model &witness, v1::PerfFinding &finding);
  void describeLaunch(const z3::model &m, v1::PerfFinding &finding) const;

  const KernelModel &model_;
  SymbolSpace &symbols_;
  const Arith &arith_;
  const LaunchContext &context_;
  PerfCheckOptions options_;
  z3::solver solver_;
  z3::expr_vector pinned_from_, pinned_to_;
  std::set<std::string> local_names_;
  // Applications of shared functions (uniform loop values) the model
  // mentions: the witness's values for them are kept for the other lanes.
  std::vector<z3::expr> uniform_applications_;
  // uniformValues of the access being checked.
  std::vector<z3::expr> uniform_;
};

WarpCostChecker::WarpCostChecker(const KernelModel &model, SymbolSpace &symbols,
                                 const LaunchContext &context, const PerfCheckOptions &options)
    : model_(model), symbols_(symbols), arith_(symbols.arith()), context_(context),
      options_(options), solver_(symbols.context()), pinned_from_(symbols.context()),
      pinned_to_(symbols.context()) {
  for (const Fact &fact : context_.facts) {
    z3::expr term = fact.term.simplify();
    if (!term.is_app() || term.decl().decl_kind() != Z3_OP_EQ)
      continue;
    for (int side = 0; side < 2; ++side)
      if (term.arg(side).is_const() && !term.arg(side).is_numeral() &&
          term.arg(1 - side).is_numeral()) {
        pinned_from_.push_back(term.arg(side));
        pinned_to_.push_back(term.arg(1 - side));
        break;
      }
  }
  z3::params params(ctx());
  params.set("timeout", options_.query_timeout_ms);
  params.set("rlimit", static_cast<unsigned>(std::min<uint64_t>(
                                 uint64_t(options_.query_rlimit) * kEffortPerQuery, UINT32_MAX)));
  solver_.set(params);
  for (int axis = 0; axis < 3; ++axis) {
    add(arith_.lessEq(arith_.constant(1, kUInt32), symbols_.blockDim(axis), false));
    add(arith_.lessEq(arith_.constant(1, kUInt32), symbols_.gridDim(axis), false));
    add(arith_.lessEq(symbols_.blockDim(axis), arith_.constant(axis == 2 ? 64 : 1024, kUInt32),
                      false));
    add(arith_.lessEq(symbols_.gridDim(axis),
                      arith_.constant(axis == 0 ? 2147483647 : 65535, kUInt32), false));
  }
  for (int t = 1; t <= 2; ++t) {
    add(symbols_.coordinateBounds(t));
    for (const z3::expr &fact : model_.thread_facts)
      add(at(fact, t));
  }
  // With the block's sizes known the rank is linear, and the solver
  // needs no help with it.
  if (!pin(symbols_.blockDim(0)).is_numeral() || !pin(symbols_.blockDim(1)).is_numeral())
    add(symbols_.sameRankTheorem());
  for (const z3::expr &fact : model_.shared_facts)
    add(fact);
  for (const Fact &fact : context_.facts)
    add(fact.term);
  for (int t = 1; t <= SymbolSpace::kThreads; ++t)
    for (const z3::expr &symbol : symbols_.threadSymbols(t))
      local_names_.insert(symbol.decl().name().str());
  std::vector<z3::expr> terms(model_.thread_facts.begin(), model_.thread_facts.end());
  for (const MemoryAccess &a : model_.accesses) {
    terms.push_back(a.offset);
    terms.push_back(a.path_condition);
  }
  for (const z3::expr &e : uninterpretedTerms(std::move(terms)))
    if (e.num_args() > 0)
      uniform_applications_.push_back(e);
}

z3::expr WarpCostChecker::pin(const z3::expr &e) const {
  z3::expr copy = e;
  return pinned_from_.empty() ? copy : copy.substitute(pinned_from_, pinned_to_);
}

int64_t WarpCostChecker::value(const z3::model &m, const z3::expr &e) const {
  std::optional<int64_t> v = Arith::numeral(m.eval(pin(e), true), true);
  return v ? *v : 0;
}

z3::expr WarpCostChecker::lane(int thread) const {
  return arith_.rem(symbols_.linearThreadId(thread), constant(options_.warp_size), false);
}

z3::expr WarpCostChecker::warp(int thread) const {
  return arith_.div(symbols_.linearThreadId(thread), constant(options_.warp_size), false);
}

z3::expr WarpCostChecker::sameBlock() const {
  z3::expr same = ctx().bool_val(true);
  for (int axis = 0; axis < 3; ++axis)
    same = same && at(symbols_.blockIdx(axis), 1) == at(symbols_.blockIdx(axis), 2);
  return same;
}

z3::expr WarpCostChecker::offsetOf(const MemoryAccess &a, int thread) const {
  return at(a.offset, thread);
}

z3::expr WarpCostChecker::sameInstance(const MemoryAccess &a) const {
  z3::expr same = sameBlock() && warp(1) == warp(2) &&
                  symbols_.linearThreadId(1) != symbols_.linearThreadId(2) &&
                  at(a.path_condition, 1) && at(a.path_condition, 2);
  for (const z3::expr &iteration : a.iterations)
    same = same && at(iteration, 1) == at(iteration, 2);
  same = same && at(a.counters.block, 1) == at(a.counters.block, 2) &&
         at(a.counters.warp, 1) == at(a.counters.warp, 2);
  if (!context_.site && a.in_bounds)
    same = same && at(*a.in_bounds, 1) && at(*a.in_bounds, 2);
  return same;
}

std::optional<std::vector<z3::expr>> WarpCostChecker::uniformValues(const MemoryAccess &a) const {
  // An address computed from loaded data may be anything the solver likes
  // for each lane: no cost said of it would be the program's. A loop value
  // the model over-approximates is priced when it is uniform (a shared
  // symbol or a shared function of the iterations, as `s *= 2` from a
  // constant is): the witness's value is then every lane's. One that
  // differs per thread (`pos = (pos + 4) & 63` from `4 * (tid & 15)`)
  // leaves each lane's value free, and the access is not priced. A launch
  // value the host sets from what it cannot follow is one value for the
  // whole launch: the witness says which it takes, and the free
  // conditions which values would cost nothing.
  std::vector<z3::expr> uniform;
  for (const z3::expr &e : uninterpretedTerms({a.offset})) {
    std::string name = e.decl().name().str();
    if (context_.imprecisions.count(name)) {
      uniform.push_back(e);
      continue;
    }
    auto it = model_.imprecisions.find(name);
    if (it == model_.imprecisions.end())
      continue;
    if (it->second.kind() != v1::IMPRECISION_KIND_LOOP_OVERAPPROXIMATED ||
        symbols_.isThreadDependent(e, a.iterations))
      return std::nullopt;
    uniform.push_back(e);
  }
  return uniform;
}

std::optional<z3::model> WarpCostChecker::solve(const z3::expr &query, bool &undecided) {
  solver_.push();
  add(query);
  z3::check_result verdict = solver_.check();
  std::optional<z3::model> m;
  if (verdict == z3::sat)
    m = solver_.get_model();
  undecided = verdict == z3::unknown;
  solver_.pop();
  return m;
}

WarpLanes WarpCostChecker::warpLanes(const MemoryAccess &a, const z3::model &m) {
  WarpLanes out;
  int64_t dims[3], block[3];
  for (int axis = 0; axis < 3; ++axis) {
    dims[axis] = std::max<int64_t>(1, value(m, symbols_.blockDim(axis)));
    block[axis] = value(m, at(symbols_.blockIdx(axis), 1));
  }
  int64_t threads = dims[0] * dims[1] * dims[2];
  int64_t first = value(m, symbols_.linearThreadId(1)) / options_.warp_size * options_.warp_size;

  solver_.push();
  // The witness's launch: every shared symbol it gives a value, the block,
  // the iterations and synchronization counts of thread 1, and the values
  // of uniform loop functions there.
  for (unsigned i = 0; i < m.num_consts(); ++i) {
    z3::func_decl symbol = m.get_const_decl(i);
    if (!local_names_.count(symbol.name().str()) && !symbol.range().is_bool())
      solver_.add(symbol() == m.get_const_interp(symbol));
  }
  auto same = [&](const z3::expr &e) { add(at(e, 2) == m.eval(pin(at(e, 1)), true)); };
  for (int axis = 0; axis < 3; ++axis)
    add(at(symbols_.blockIdx(axis), 2) == constant(block[axis]));
  for (const z3::expr &iteration : a.iterations)
    same(iteration);
  same(a.counters.block);
  same(a.counters.warp);
  for (const z3::expr &application : uniform_applications_)
    if (!symbols_.isThreadDependent(application, a.iterations))
      same(application);
  add(at(a.path_condition, 2));
  if (!context_.site && a.in_bounds)
    add(at(*a.in_bounds, 2));

  for (unsigned l = 0; l < options_.warp_size && first + l < threads; ++l) {
    int64_t linear = first + l;
    int64_t coordinate[3] = {linear % dims[0], linear / dims[0] % dims[1],
                             linear / (dims[0] * dims[1])};
    v1::ThreadCoord thread;
    thread.mutable_thread_idx()->set_x(coordinate[0]);
    thread.mutable_thread_idx()->set_y(coordinate[1]);
    thread.mutable_thread_idx()->set_z(coordinate[2]);
    thread.mutable_block_idx()->set_x(block[0]);
    thread.mutable_block_idx()->set_y(block[1]);
    thread.mutable_block_idx()->set_z(block[2]);
    if (l == 0)
      out.first_lane = thread;
    solver_.push();
    for (int axis = 0; axis < 3; ++axis)
      add(arith_.convert(at(symbols_.threadIdx(axis), 2), kUInt32, kInt64) ==
          constant(coordinate[axis]));
    if (solver_.check() == z3::sat) {
      out.offsets.push_back({l, value(solver_.get_model(), offsetOf(a, 2))});
      out.threads[l] = thread;
    }
    solver_.pop();
  }
  solver_.pop();
  return out;
}

v1::PerfFinding WarpCostChecker::findingFor(const MemoryAccess &a, v1::PerfKind kind) const {
  v1::PerfFinding finding;
  finding.set_kernel(model_.kernel_name);
  *finding.mutable_site() = a.site;
  finding.set_kind(kind);
  finding.set_in_loop(!a.iterations.empty());
  if (context_.site)
    *finding.mutable_launch_site() = *context_.site;
  for (const Fact &fact : context_.facts)
    *finding.add_assumptions() = fact.assumption;
  for (const z3::expr &value : uniform_) {
    std::string name = value.decl().name().str();
    auto launch_wide = context_.imprecisions.find(name);
    *finding.add_imprecisions() = launch_wide != context_.imprecisions.end()
                                      ? launch_wide->second
                                      : model_.imprecisions.at(name);
  }
  return finding;
}

std::vector<std::pair<std::string, z3::expr>>
WarpCostChecker::freeLaunchValues(const MemoryAccess &a) const {
  std::set<unsigned> mentioned, fixed;
  for (const z3::expr &e : uninterpretedTerms({pin(offsetOf(a, 1))}))
    mentioned.insert(e.id());
  for (const z3::expr &e : pinned_from_)
    fixed.insert(e.id());
  std::vector<std::pair<std::string, z3::expr>> candidates = model_.parameters;
  for (int axis = 0; axis < 3; ++axis)
    candidates.emplace_back(std::string("blockDim.") + "xyz"[axis], symbols_.blockDim(axis));
  std::vector<std::pair<std::string, z3::expr>> out;
  for (const auto &[name, symbol] : candidates)
    if (symbol.is_const() && mentioned.count(symbol.id()) && !fixed.count(symbol.id()))
      out.emplace_back(name, symbol);
  return out;
}

void WarpCostChecker::addFreeConditions(const MemoryAccess &a, const z3::expr &costly,
                                        const z3::model &witness, v1::PerfFinding &finding) {
  for (const auto &[name, symbol] : freeLaunchValues(a)) {
    int64_t w = value(witness, symbol);
    // Padding a width or pitch by one, or a step back, is what usually ends
    // a bank conflict; a unit stride what ends a gather's excess.
    std::vector<int64_t> tries;
    for (int64_t v : {w + 1, w - 1, int64_t(1)})
      if (v >= 1 && v != w && std::find(tries.begin(), tries.end(), v) == tries.end())
        tries.push_back(v);
    for (int64_t v : tries) {
      // Substituted rather than asserted, so that `t * pitch` is linear.
      z3::expr_vector from(ctx()), to(ctx());
      from.push_back(symbol);
      to.push_back(symbol.is_int() ? ctx().int_val(v)
                                   : ctx().bv_val(v, symbol.get_sort().bv_size()));
      auto with = [&](const z3::expr &e) {
        z3::expr copy = pin(e);
        return copy.substitute(from, to) && symbol == to[0];
      };
      bool undecided = false;
      if (solve(with(costly), undecided) || undecided)
        continue;
      // A value no launch takes (a block dimension past its limit, one a
      // fact rules out) would make the claim vacuous.
      if (!solve(with(sameInstance(a)), undecided))
        continue;
      v1::FreeCondition *condition = finding.add_free_when();
      condition->set_name(name);
      condition->set_witness_value(w);
      condition->set_equals(v);
      break;
    }
  }
}

void WarpCostChecker::describeLaunch(const z3::model &m, v1::PerfFinding &finding) const {
  auto dim = [&](v1::Dim3 &d, auto symbol) {
    d.set_x(value(m, symbol(0)));
    d.set_y(value(m, symbol(1)));
    d.set_z(value(m, symbol(2)));
  };
  dim(*finding.mutable_block_dim(), [&](int axis) { return symbols_.blockDim(axis); });
  dim(*finding.mutable_grid_dim(), [&](int axis) { return symbols_.gridDim(axis); });
  for (const auto &[name, symbol] : model_.parameters) {
    std::optional<int64_t> v = Arith::numeral(m.eval(pin(symbol), true), true);
    v1::NamedValue *parameter = finding.add_parameters();
    parameter->set_name(name);
    parameter->set_value(v ? std::to_string(*v) : "?");
  }
}

namespace {

// Whether `symbol` occurs in `roots` other than inside one of `opaque`.
bool mentionsOutside(std::vector<z3::expr> roots, const z3::expr &symbol,
                     const std::vector<z3::expr> &opaque) {
  return walkTerms(std::move(roots), [&](const z3::expr &e) {
    if (z3::eq(e, symbol))
      return TermVisit::Stop;
    bool hidden =
        std::any_of(opaque.begin(), opaque.end(), [&](const z3::expr &o) { return z3::eq(o, e); });
    return hidden ? TermVisit::Prune : TermVisit::Descend;
  });
}

} // namespace

z3::expr WarpCostChecker::sameInstanceAs(const MemoryAccess &a, const z3::model &m) const {
  z3::expr same = ctx().bool_val(true);
  auto fix = [&](const z3::expr &e) { same = same && e == m.eval(pin(e), true); };
  // An iteration the address and the path read only through the uniform
  // loop values (`s` of `for (s = 1; ...; s *= 2)`) does not tell instances
  // apart: another iteration with the same values is the same warp access,
  // which the search would otherwise meet again instead of a worse one.
  for (const z3::expr &iteration : a.iterations)
    if (mentionsOutside({a.offset, a.path_condition}, iteration, uniform_))
      fix(at(iteration, 1));
  for (const z3::expr &value : uniform_)
    fix(at(value, 1));
  for (int axis = 0; axis < 3; ++axis)
    fix(symbols_.blockDim(axis));
  return same;
}

std::optional<v1::PerfFinding> WarpCostChecker::checkBanks(const MemoryAccess &a) {
  unsigned size = std::max(1u, a.site.size_bytes());
  unsigned width = std::max(size, kBankWidthBytes);
  unsigned pass = std::min(options_.warp_size, lanesPerBankPass(size));
  z3::expr units_per_pass = constant(kSharedBanks * kBankWidthBytes / width);
  auto unit = [&](int t) { return arith_.div(offsetOf(a, t), constant(width), true); };
  // Distinct words of one bank. On integers the same is also said with a
  // multiplier, words a nonzero multiple of a pass apart: with it a proof
  // is a bounded search, not one that depends on the order in which the
  // solver meets the remainders' terms.
  z3::expr one_bank = unit(1) != unit(2) && arith_.rem(unit(1), units_per_pass, true) ==
                                                arith_.rem(unit(2), units_per_pass, true);
  if (arith_.mode() == OverflowMode::Math) {
    z3::expr passes = arith_.symbol("bank-passes-apart", kInt64);
    one_bank = one_bank && passes != constant(0) &&
               arith_.sub(unit(2), unit(1)) == arith_.mul(units_per_pass, passes);
  }
  z3::expr conflict =
      sameInstance(a) && arith_.less(lane(1), lane(2), true) &&
      arith_.div(lane(1), constant(pass), false) == arith_.div(lane(2), constant(pass), false) &&
      one_bank;

  std::optional<v1::PerfFinding> worst;
  std::optional<z3::model> worst_model;
  z3::expr closer = ctx().bool_val(true), elsewhere = ctx().bool_val(true);
  for (int round = 0; round <= kWorseWitnessRounds; ++round) {
    bool undecided = false;
    std::optional<z3::model> m = solve(conflict && closer && elsewhere, undecided);
    if (!m) {
      if (round == 0 && !undecided) {
        v1::PerfFinding proved = findingFor(a, v1::PERF_KIND_BANK_CONFLICT);
        proved.set_cost(1);
        proved.set_best(1);
        proved.set_proved(true);
        return proved;
      }
      break;
    }
    WarpLanes lanes = warpLanes(a, *m);
    BankConflict bank = bankConflict(lanes.offsets, size);
    if (worst && bank.degree <= worst->cost()) {
      // Fewer lanes took part there (a later step of a reduction): look
      // at another instance, as close.
      elsewhere = elsewhere && !sameInstanceAs(a, *m);
      continue;
    }
    v1::PerfFinding finding = findingFor(a, v1::PERF_KIND_BANK_CONFLICT);
    finding.set_cost(bank.degree);
    finding.set_best(1);
    describeLaunch(*m, finding);
    *finding.mutable_warp() = lanes.first_lane;
    std::set<unsigned> in_worst_bank(bank.lanes.begin(), bank.lanes.end());
    for (const LaneOffset &lane : lanes.offsets)
      if (in_worst_bank.count(lane.lane))
        addLane(finding, lanes, lane, bank.bank);
    worst = finding;
    worst_model = *m;
    // An affine address repeats its banks every pass / degree lanes: a
    // worse conflict has two lanes closer than that.
    unsigned distance = (pass - 1) / bank.degree;
    if (distance == 0)
      break;
    closer = arith_.lessEq(arith_.sub(lane(2), lane(1)), constant(distance), true);
  }
  if (!worst || worst->cost() <= 1)
    return std::nullopt;
  addFreeConditions(a, conflict, *worst_model, *worst);
  return worst;
}

std::optional<v1::PerfFinding> WarpCostChecker::checkSectors(const MemoryAccess &a) {
  int64_t size = std::max(1u, a.site.size_bytes());
  z3::expr difference = arith_.sub(offsetOf(a, 2), offsetOf(a, 1));
  z3::expr tid_x1 = arith_.convert(at(symbols_.threadIdx(0), 1), kUInt32, kInt64);
  z3::expr tid_x2 = arith_.convert(at(symbols_.threadIdx(0), 2), kUInt32, kInt64);
  // Neighbouring lanes of one row of the block: where rows are shorter
  // than a warp, the step to the next row is the layout's, not a stride.
  z3::expr neighbours = sameInstance(a) &&
                        symbols_.linearThreadId(2) == arith_.add(symbols_.linearThreadId(1),
                                                                 constant(1)) &&
                        tid_x2 == arith_.add(tid_x1, constant(1));
  z3::expr scattered = difference != constant(0) && difference != constant(size) &&
                       difference != constant(-size);
  z3::expr far_apart = !arith_.less(difference, constant(kSectorBytes), true) ||
                       !arith_.less(constant(-int64_t(kSectorBytes)), difference, true);

  std::optional<v1::PerfFinding> worst;
  std::optional<z3::model> worst_model;
  for (const z3::expr &apart : {scattered, far_apart}) {
    bool undecided = false;
    std::optional<z3::model> m = solve(neighbours && apart, undecided);
    if (!m) {
      if (!worst && !undecided && apart.id() == scattered.id()) {
        v1::PerfFinding proved = findingFor(a, v1::PERF_KIND_UNCOALESCED);
        unsigned full = static_cast<unsigned>(
            (options_.warp_size * size + kSectorBytes - 1) / kSectorBytes);
        proved.set_cost(full);
        proved.set_best(full);
        proved.set_proved(true);
        return proved;
      }
      break;
    }
    WarpLanes lanes = warpLanes(a, *m);
    SectorCount count = sectorCount(lanes.offsets, static_cast<unsigned>(size));
    if (count.sectors <= count.best)
      continue;
    if (worst && uint64_t(count.sectors) * worst->best() <= uint64_t(worst->cost()) * count.best)
      continue;
    v1::PerfFinding finding = findingFor(a, v1::PERF_KIND_UNCOALESCED);
    finding.set_cost(count.sectors);
    finding.set_best(count.best);
    finding.set_stride_bytes(value(*m, difference));
    describeLaunch(*m, finding);
    *finding.mutable_warp() = lanes.first_lane;
    for (const LaneOffset &lane : lanes.offsets)
      addLane(finding, lanes, lane, sectorOf(lane.offset));
    worst = finding;
    worst_model = *m;
  }
  if (worst)
    addFreeConditions(a, neighbours && scattered, *worst_model, *worst);
  return worst;
}

std::vector<v1::PerfFinding> WarpCostChecker::run() {
  std::vector<v1::PerfFinding> out;
  std::set<std::string> done;
  for (const MemoryAccess &a : model_.accesses) {
    bool shared = isSharedAccess(a), global = isGlobalAccess(a);
    if ((!shared && !global) || !done.insert(a.site.site_id()).second)
      continue;
    std::optional<std::vector<z3::expr>> uniform = uniformValues(a);
    if (!uniform)
      continue;
    uniform_ = *uniform;
    std::optional<v1::PerfFinding> finding = shared ? checkBanks(a) : checkSectors(a);
    if (finding)
      out.push_back(std::move(*finding));
  }
  return out;
}

} // namespace

std::vector<v1::PerfFinding> checkWarpCosts(const KernelModel &model, SymbolSpace &symbols,
                                            const LaunchContext &context,
                                            const PerfCheckOptions &options) {
  return WarpCostChecker(model, symbols, context, options).run();
}

} // namespace gpurace::analyzer
