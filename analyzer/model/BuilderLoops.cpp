//===- BuilderLoops.cpp - loops and induction variables ---------------------===//
//
// Canonical loops get an iteration symbol with exact bounds and stride;
// what else a loop assigns is over-approximated.
//
//===----------------------------------------------------------------------===//
#include "analyzer/model/ModelBuilder.h"

#include "analyzer/model/VariableWrites.h"

#include <clang/AST/Decl.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>

namespace gpurace::analyzer::builder {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;

namespace {

// The induction variable, start, and step of `for (i = a; i < b; i += s)`
// when the body does not assign i itself.
struct CanonicalLoop {
  const clang::VarDecl *var = nullptr;
  const clang::Expr *start = nullptr;
  const clang::Expr *step = nullptr; // null for ++/--
  bool decrement = false;
};

std::optional<CanonicalLoop> canonicalForm(const clang::ForStmt &loop) {
  CanonicalLoop out;
  const clang::Stmt *init = loop.getInit();
  if (auto *decl = dyn_cast_or_null<clang::DeclStmt>(init)) {
    if (!decl->isSingleDecl())
      return std::nullopt;
    auto *var = dyn_cast<clang::VarDecl>(decl->getSingleDecl());
    if (!var || !var->getInit())
      return std::nullopt;
    out.var = var;
    out.start = var->getInit();
  } else if (auto *assign = dyn_cast_or_null<clang::BinaryOperator>(init)) {
    auto *ref = dyn_cast<clang::DeclRefExpr>(assign->getLHS()->IgnoreParenImpCasts());
    if (assign->getOpcode() != clang::BO_Assign || !ref)
      return std::nullopt;
    out.var = dyn_cast<clang::VarDecl>(ref->getDecl());
    out.start = assign->getRHS();
  }
  if (!out.var || !out.var->getType()->isIntegerType())
    return std::nullopt;
  const clang::Expr *inc = dyn_cast_or_null<clang::Expr>(loop.getInc());
  if (!inc)
    return std::nullopt;
  inc = inc->IgnoreParenImpCasts();
  auto refersToVar = [&](const clang::Expr *e) {
    auto *ref = dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
    return ref && ref->getDecl() == out.var;
  };
  if (auto *unary = dyn_cast<clang::UnaryOperator>(inc)) {
    if (!unary->isIncrementDecrementOp() || !refersToVar(unary->getSubExpr()))
      return std::nullopt;
    out.decrement = unary->isDecrementOp();
    return out;
  }
  if (auto *binary = dyn_cast<clang::BinaryOperator>(inc)) {
    if (!refersToVar(binary->getLHS()))
      return std::nullopt;
    if (binary->getOpcode() == clang::BO_AddAssign ||
        binary->getOpcode() == clang::BO_SubAssign) {
      out.step = binary->getRHS();
      out.decrement = binary->getOpcode() == clang::BO_SubAssign;
      return out;
    }
    if (binary->getOpcode() == clang::BO_Assign) {
      auto *sum = dyn_cast<clang::BinaryOperator>(binary->getRHS()->IgnoreParenImpCasts());
      if (sum && (sum->getOpcode() == clang::BO_Add ||
                  sum->getOpcode() == clang::BO_Sub) &&
          refersToVar(sum->getLHS())) {
        out.step = sum->getRHS();
        out.decrement = sum->getOpcode() == clang::BO_Sub;
        return out;
      }
    }
  }
  return std::nullopt;
}

} // namespace

void Builder::walkFor(const clang::ForStmt &stmt) {
  LoopShape shape{stmt.getBody(), stmt.getCond(), stmt.getInc()};
  std::optional<CanonicalLoop> canonical = canonicalForm(stmt);
  if (canonical && !assignedIn(stmt.getBody()).count(localKey(*canonical->var))) {
    if (unrollRegisterLoop(stmt))
      return;
    Value start = eval(canonical->start);
    z3::expr step = canonical->step
                        ? asInt(eval(canonical->step), kInt64)
                        : arith_.constant(1, kInt64);
    if (canonical->decrement)
      step = arith_.sub(arith_.constant(0, kInt64), step);
    walkLoop(stmt, shape,
             {SteppedVariable{localKey(*canonical->var), canonical->var->getType(), start, step}});
    return;
  }
  walk(stmt.getInit());
  walkLoop(stmt, shape, {});
}

void Builder::addSteppedVariables(const LoopShape &shape, const std::set<std::string> &assigned,
                                  std::vector<SteppedVariable> &stepped) {
  auto invariant = [&](const clang::VarDecl &var) { return !assigned.count(localKey(var)); };
  std::vector<InductionStep> steps = inductionSteps(shape, invariant);
  std::vector<InductionStep> nested = nestedInductionSteps(shape, invariant);
  steps.insert(steps.end(), nested.begin(), nested.end());
  for (const InductionStep &step : steps) {
    std::string key = localKey(*step.var);
    auto known = std::find_if(stepped.begin(), stepped.end(),
                              [&](const SteppedVariable &v) { return v.key == key; });
    auto at_entry = state_.env.find(key);
    // A variable whose address escaped may also change through a pointer.
    if (known != stepped.end() || exposed_.count(key) || at_entry == state_.env.end() ||
        at_entry->second.kind == Value::Kind::Bool)
      continue;
    bool pointer = step.var->getType()->isPointerType();
    if (pointer != (at_entry->second.kind == Value::Kind::Pointer))
      continue;
    z3::expr amount = step.amount ? asInt(eval(step.amount), kInt64) : arith_.constant(1, kInt64);
    if (step.negate)
      amount = arith_.sub(zero64(), amount);
    // Its guard is invariant: its value on entry decides every iteration.
    if (step.guard) {
      z3::expr taken = asBool(eval(step.guard));
      amount = z3::ite(step.guard_negated ? !taken : taken, amount, zero64());
    }
    // Inner loops repeat the step: as many times per iteration as they run.
    for (const CountedLoop &inner : step.repeats) {
      z3::expr runs = arith_.sub(asInt(eval(inner.bound), kInt64), asInt(eval(inner.start), kInt64));
      amount = arith_.mul(
          amount, z3::ite(arith_.less(zero64(), runs, true), runs, zero64()).simplify());
    }
    if (pointer && !step.in_bytes)
      amount = arith_.mul(amount, arith_.constant(sizeOf(step.var->getType()->getPointeeType()),
                                                   kInt64));
    stepped.push_back({key, step.var->getType(), at_entry->second, amount});
  }
}

// The variables `resetsAtEnd` finds that enter the loop holding the value
// they are reset to: they hold it at every head.
std::set<std::string> Builder::resetVariables(const LoopShape &shape,
                                              const std::set<std::string> &assigned) {
  auto invariant = [&](const clang::VarDecl &var) { return !assigned.count(localKey(var)); };
  std::set<std::string> reset;
  for (const LoopReset &r : resetsAtEnd(shape, invariant)) {
    std::string key = localKey(*r.var);
    auto at_entry = state_.env.find(key);
    if (exposed_.count(key) || at_entry == state_.env.end() ||
        at_entry->second.kind != Value::Kind::Int)
      continue;
    IntType t = intTypeOf(r.var->getType());
    z3::expr entry = asInt(at_entry->second, t).simplify();
    if (z3::eq(entry, asInt(eval(r.value), t).simplify()))
      reset.insert(key);
  }
  return reset;
}

Value Builder::steppedValue(const SteppedVariable &v, const z3::expr &k) const {
  if (v.start.kind == Value::Kind::Pointer)
    return pointerValue(arith_.add(v.start.expr, arith_.mul(k, v.step)), v.start.object,
                        v.start.local);
  IntType t = intTypeOf(v.type);
  z3::expr value = arith_.add(asInt(v.start, kInt64), arith_.mul(k, v.step));
  return intValue(arith_.convert(value, kInt64, t), t);
}

Value Builder::steppedAtExit(const SteppedVariable &v, const z3::expr &k,
                             const z3::expr &exit_k, const std::vector<State> &breaks) {
  // A break before the step leaves the head's value, the very expression
  // (z3 shares equal terms) the walk put there.
  z3::expr at_head = steppedValue(v, k).expr;
  bool after_step = std::any_of(breaks.begin(), breaks.end(), [&](const State &at_break) {
    auto held = at_break.env.find(v.key);
    return held == at_break.env.end() || !z3::eq(held->second.expr, at_head);
  });
  if (!after_step)
    return steppedValue(v, exit_k);
  z3::expr taken = symbols_.freshLocal("steptaken", kInt64);
  model_.thread_facts.push_back(taken >= 0 && taken <= 1);
  return steppedValue(v, arith_.add(exit_k, taken));
}

z3::expr Builder::uniformInLoops(const std::string &name, IntType type,
                                 const std::vector<z3::expr> &iterations, bool per_block) {
  if (iterations.empty() && !per_block)
    return symbols_.freshShared(name, type);
  z3::expr_vector args(ctx());
  if (per_block)
    for (int axis = 0; axis < 3; ++axis)
      args.push_back(arith_.convert(symbols_.blockIdx(axis), kUInt32, kInt64));
  for (const z3::expr &k : iterations)
    args.push_back(k);
  z3::func_decl f = symbols_.freshSharedFunction(name, args.size(), type);
  return f(args);
}

bool Builder::blockUniform(const z3::expr &e, const std::vector<z3::expr> &iterations) const {
  std::vector<z3::expr> same = iterations;
  for (int axis = 0; axis < 3; ++axis)
    same.push_back(symbols_.blockIdx(axis));
  return !symbols_.isThreadDependent(e, same);
}

std::vector<int> Builder::countsOf(const SyncCount &count) {
  std::vector<int> out{count.block, count.warp, count.grid};
  for (const auto &[mask, n] : count.masked_warp)
    out.push_back(n);
  return out;
}

std::vector<bool> Builder::variesOf(const SyncCount &count) {
  std::vector<bool> out{count.block_varies, count.warp_varies, count.grid_varies};
  for (size_t i = 0; i < count.masked_warp.size(); ++i)
    out.push_back(count.masked_varies);
  return out;
}

std::vector<z3::expr> Builder::countersOf(const State &state, const SyncCount &count) const {
  std::vector<z3::expr> out{state.block, state.warp, state.grid};
  for (const auto &[mask, n] : count.masked_warp)
    out.push_back(maskedCount(state, mask));
  return out;
}

void Builder::setCounters(State &state, const SyncCount &count,
                          const std::vector<z3::expr> &values) {
  state.block = values[0];
  state.warp = values[1];
  state.grid = values[2];
  size_t i = 3;
  for (const auto &[mask, n] : count.masked_warp)
    state.masked_warp.insert_or_assign(mask, values[i++]);
}

z3::expr Builder::advanceAtHead(int per_iteration, bool varies, const z3::expr &k,
                                const char *name) {
  z3::expr at_least = arith_.mul(k, arith_.constant(per_iteration, kInt64));
  if (!varies)
    return at_least;
  // The synchronization outside the body's branches and inner loops runs
  // in every iteration: k iterations advance the counter at least k times
  // that much (a barrier after a loop with a data-dependent exit orders a
  // later iteration after what came before the loop).
  z3::expr advance = uniformInLoops(name, kInt64, iterations_);
  model_.thread_facts.push_back(arith_.lessEq(per_iteration ? at_least : zero64(), advance, true));
  model_.thread_facts.push_back(k != 0 || advance == zero64());
  return advance;
}

// Loops: each thread is in its own iteration k >= 0 of each loop. Variables
// the loop steps by a fixed amount hold start + k * step at the head of
// iteration k; others the body assigns get either a value shared by all
// threads in iteration k (when nothing thread-specific flows into them) or
// a fresh thread-local value. The synchronization counters at the head of
// iteration k are entry + k * (synchronization per iteration), so accesses
// late in iteration k and early in iteration k+1 are compared exactly,
// which is the back edge PUG checks; where iterations synchronize
// differently, the count at the head is a monotone function of k.
void Builder::walkLoop(const clang::Stmt &loop, const LoopShape &shape,
                       std::vector<SteppedVariable> stepped, const clang::Stmt *head) {
  State entry = state_;
  size_t locals_at_entry = symbols_.localCount();
  std::set<std::string> assigned = assignedIn(shape.body);
  for (const clang::Stmt *part :
       {static_cast<const clang::Stmt *>(shape.cond), shape.inc, head}) {
    auto more = assignedIn(part);
    assigned.insert(more.begin(), more.end());
  }
  addSteppedVariables(shape, assigned, stepped);
  std::set<std::string> reset = resetVariables(shape, assigned);
  for (const SteppedVariable &v : stepped)
    assigned.erase(v.key);
  for (const std::string &key : reset)
    assigned.erase(key);

  z3::expr k = symbols_.freshLocal("k", kInt64);
  iterations_.push_back(k);
  model_.thread_facts.push_back(k >= 0 || !entry.pc);
  std::vector<SharedLoopValue> shared = havoc(assigned, loop, iterations_);
  std::vector<CountedVariable> counted = countedVariables(loop, assigned);
  boundIncrements(counted, shape, entry, k, false);
  for (const SteppedVariable &v : stepped)
    state_.env.insert_or_assign(v.key, steppedValue(v, k));
  LoopScaling scaled = scaling(shape, entry);
  for (const ScalingFact &fact : scaled.facts)
    model_.thread_facts.push_back(!entry.pc || fact.fact);

  SyncCount per_iteration = countSync(shape.body);
  const char *names[] = {"blocksync", "warpsync", "gridsync"};
  auto nameOf = [&](size_t i) { return i < 3 ? names[i] : "maskedsync"; };
  std::vector<int> counts = countsOf(per_iteration);
  std::vector<bool> varies = variesOf(per_iteration);
  std::vector<z3::expr> at_entry = countersOf(entry, per_iteration);
  std::vector<z3::expr> advances, heads;
  for (size_t i = 0; i < counts.size(); ++i) {
    advances.push_back(
        advanceAtHead(counts[i], varies[i], k, nameOf(i)));
    heads.push_back(arith_.add(at_entry[i], advances[i]));
  }
  setCounters(state_, per_iteration, heads);

  z3::expr enters = shape.cond ? asBool(eval(shape.cond)) : ctx().bool_val(true);
  std::optional<ConstantLoop> constant = constantLoop(loop, shape, entry, k, enters);
  state_.pc = state_.pc && enters;
  z3::expr head_pc = state_.pc;
  loop_exits_.push_back({switches_.size(), frames_.size(), {}});
  walk(head);
  walk(shape.body);
  if (shape.inc)
    walk(shape.inc);
  std::vector<State> breaks = std::move(loop_exits_.back().breaks);
  std::vector<State> continues = std::move(loop_exits_.back().continues);
  bool returns = loop_exits_.back().returns;
  loop_exits_.pop_back();
  confirmSharedLoopValues(loop, shared, continues, head_pc);
  iterations_.pop_back();
  for (auto own = own_stores_.begin(); own != own_stores_.end();)
    own = own->second.depth > iterations_.size() ? own_stores_.erase(own) : std::next(own);
  std::vector<z3::expr> at_end = countersOf(state_, per_iteration);

  // After the loop: the counters advanced by a uniform trip count; stepped
  // variables by some number of steps; other variables the loop assigned
  // are unknown.
  state_ = entry;
  z3::expr trips = uniformInLoops("trips", kInt64, iterations_);
  // Inside other loops the trip count is a function of the thread's
  // iterations of them, so the fact holds for each thread's own.
  (iterations_.empty() ? model_.shared_facts : model_.thread_facts).push_back(trips >= 0);
  std::vector<z3::expr> after;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (!varies[i]) {
      // A loop with no barrier leaves the counter as it was, the very term:
      // a divergent branch holding one must not leave a counter that only
      // the solver can tell equal on both sides (`trips * 0`), or every
      // read after it is taken to differ between threads.
      after.push_back(counts[i] == 0 ? at_entry[i]
                                     : arith_.add(at_entry[i],
                                                  arith_.mul(trips, arith_.constant(counts[i],
                                                                                     kInt64))));
      continue;
    }
    // Past every iteration the thread took part in.
    KernelModel::IterationSync unequal{k, iterations_, advances[i],
                                       arith_.sub(at_end[i], heads[i])};
    z3::expr total = uniformInLoops(nameOf(i), kInt64, iterations_);
    // A thread's own iteration counts only where it entered it; a loop it
    // never entered leaves the count as it was.
    model_.thread_facts.push_back(arith_.lessEq(zero64(), total, true));
    model_.thread_facts.push_back(
        arith_.lessEq(arith_.add(unequal.head, unequal.per_iteration), total, true) ||
        !head_pc);
    // Nor does the head of the iteration whose test fails (a thread there
    // has read the condition, as `!found` is read at every head).
    model_.thread_facts.push_back(arith_.lessEq(unequal.head, total, true) || !entry.pc);
    after.push_back(arith_.add(at_entry[i], total));
    model_.iteration_syncs.push_back(unequal);
  }
  setCounters(state_, per_iteration, after);
  // Every thread's iterations precede the trip count, which only the exact
  // counters use; a thread that breaks out runs part of its exit
  // iteration. A loop of constant bounds may run no iteration at all:
  // then no k is below its count, and no thread is in any iteration.
  bool runs_none = constant && breaks.empty() && constant->trips == 0;
  z3::expr ran = breaks.empty() ? k < trips : k <= trips;
  if (!runs_none)
    model_.thread_facts.push_back(ran || !entry.pc);
  // Where every thread leaves in the same iteration, that iteration is
  // known to all: values stepped or kept alike through the loop stay so
  // after it (the offset of a scan's up-sweep, reused by its down-sweep).
  std::optional<SharedExit> shared_exit =
      returns || isa<clang::DoStmt>(loop) ? std::nullopt
                                          : sharedExit(enters, breaks, entry.pc, k, trips);
  z3::expr exit_k =
      shared_exit ? shared_exit->iteration : symbols_.freshLocal("kexit", kInt64);
  model_.thread_facts.push_back(exit_k >= 0 || !entry.pc);
  if (shared_exit && !runs_none)
    model_.thread_facts.push_back((breaks.empty() ? k < exit_k : k <= exit_k) || !entry.pc);
  if (!shared_exit && breaks.empty() && !returns && !isa<clang::DoStmt>(loop))
    leaveByCondition(enters, k, exit_k, entry.pc, locals_at_entry);
  std::vector<z3::expr> at_exit = iterations_;
  at_exit.push_back(exit_k);
  havoc(assigned, loop, at_exit);
  // A thread that breaks out may have counted in its exit iteration; one
  // that leaves by the condition has tested it once more than it iterated.
  boundIncrements(counted, shape, entry,
                  breaks.empty() ? exit_k : arith_.add(exit_k, arith_.constant(1, kInt64)), true);
  // A thread that breaks out leaves before the reset.
  if (!breaks.empty())
    havoc(reset, loop, at_exit);
  for (const SteppedVariable &v : stepped)
    state_.env.insert_or_assign(v.key, steppedAtExit(v, k, exit_k, breaks));
  if (shared_exit && breaks.empty()) {
    // No thread breaks out: each leaves at the head of the exit iteration,
    // where the condition fails, holding that iteration's values.
    z3::expr_vector from(ctx()), to(ctx());
    from.push_back(k);
    to.push_back(exit_k);
    model_.thread_facts.push_back(!entry.pc || !z3::expr(enters).substitute(from, to));
    // It is the first such head: the iteration before it entered (a
    // pointer stepped in the loop leaves it one step per iteration on,
    // not any number of steps).
    z3::expr_vector before(ctx());
    before.push_back(arith_.sub(exit_k, arith_.constant(1, kInt64)));
    model_.thread_facts.push_back(!entry.pc || exit_k == zero64() ||
                                  z3::expr(enters).substitute(from, before));
    std::set<std::string> kept;
    for (const SharedLoopValue &value : shared)
      if (!revisions_.varying_loop_values.count({&loop, value.var})) {
        Value now = state_.env.at(value.key);
        now.expr = z3::expr(value.head).substitute(from, to);
        state_.env.insert_or_assign(value.key, now);
        kept.insert(value.key);
      }
    for (const z3::expr &fact : scalingAtExit(scaled, kept, k, exit_k))
      model_.thread_facts.push_back(!entry.pc || fact);
  }
  // A do-while tests its condition after the body, where `enters` does not
  // describe it.
  if (!breaks.empty() && !returns && !isa<clang::DoStmt>(loop)) {
    // Which way a thread leaves is alike too where its exit iteration is.
    z3::expr way = shared_exit ? uniformInLoops("exitway", kInt64, iterations_,
                                                shared_exit->per_block)
                               : symbols_.freshLocal("exitway", kInt64);
    keepBreakValues(breaks, enters, k, exit_k, way, entry.pc, assigned, locals_at_entry);
  }
  if (constant && breaks.empty())
    leaveConstantLoop(*constant, stepped, trips, exit_k, entry.pc);
}

void Builder::leaveByCondition(const z3::expr &enters, const z3::expr &k, const z3::expr &exit_k,
                               const z3::expr &entry_pc, size_t locals_at_entry) {
  // The condition must be one the loop's entry already knew, but for k: a
  // value the loop changes or loads is one iteration's, not the exit's.
  if (symbols_.mentionsLocalsSince(enters, locals_at_entry, {k}) ||
      z3::expr(enters).simplify().is_true())
    return;
  z3::expr_vector from(ctx()), at_exit(ctx()), before(ctx());
  from.push_back(k);
  at_exit.push_back(exit_k);
  before.push_back(arith_.sub(exit_k, arith_.constant(1, kInt64)));
  model_.thread_facts.push_back(!entry_pc || !z3::expr(enters).substitute(from, at_exit));
  model_.thread_facts.push_back(!entry_pc || exit_k == zero64() ||
                                z3::expr(enters).substitute(from, before));
}

void Builder::keepBreakValues(const std::vector<State> &breaks, const z3::expr &enters,
                              const z3::expr &k, const z3::expr &exit_k,
                              const z3::expr &way, const z3::expr &entry_pc,
                              const std::set<std::string> &assigned, size_t locals_at_entry) {
  auto known = [&](const z3::expr &e) {
    return !symbols_.mentionsLocalsSince(e, locals_at_entry, {k});
  };
  if (!known(enters))
    return;
  for (const State &at_break : breaks)
    if (!known(at_break.pc))
      return;
  auto in = [&](const z3::expr &e, const z3::expr &iteration) {
    z3::expr_vector from(ctx()), to(ctx());
    from.push_back(k);
    to.push_back(iteration);
    return z3::expr(e).substitute(from, to);
  };
  // A thread leaves in its exit iteration through one of the breaks (way
  // j), or by the condition failing there (way n). Either way it ran every
  // earlier iteration to its end: the condition held and no break was
  // taken. The break paths exclude each other, as a break ends its path.
  const int n = static_cast<int>(breaks.size());
  auto leaves_by = [&](int j) { return way == arith_.constant(j, kInt64); };
  z3::expr one = arith_.constant(1, kInt64);
  z3::expr before_exit = arith_.sub(exit_k, one);
  z3::expr ran_before = in(enters, before_exit);
  std::vector<z3::expr> facts{arith_.lessEq(zero64(), way, true),
                              arith_.lessEq(way, arith_.constant(n, kInt64), true),
                              z3::implies(leaves_by(n), !in(enters, exit_k))};
  for (int j = 0; j < n; ++j) {
    facts.push_back(z3::implies(leaves_by(j), in(breaks[j].pc, exit_k)));
    ran_before = ran_before && !in(breaks[j].pc, before_exit);
  }
  facts.push_back(z3::implies(arith_.lessEq(one, exit_k, true), ran_before));
  // No iteration before the thread's own, or before its exit iteration,
  // broke out. Where a break's test holds in one iteration only (`i == c`,
  // i stepped by one), that iteration did not break if it was earlier.
  for (const State &at_break : breaks)
    if (std::optional<z3::expr> only = onlyIteration(at_break.pc, k)) {
      z3::expr did_not_break = !in(at_break.pc, *only);
      for (const z3::expr &later : {k, exit_k})
        facts.push_back(z3::implies(zero64() <= *only && *only < later, did_not_break));
    }
  for (const z3::expr &fact : facts)
    model_.thread_facts.push_back(!entry_pc || fact);
  for (const std::string &key : assigned) {
    auto now = state_.env.find(key);
    if (now == state_.env.end() || now->second.kind == Value::Kind::Pointer)
      continue;
    // A break whose value is not known leaves the value the loop havocs.
    Value value = now->second;
    for (int j = n - 1; j >= 0; --j) {
      auto left = breaks[j].env.find(key);
      if (left == breaks[j].env.end() || left->second.kind != now->second.kind ||
          !z3::eq(left->second.expr.get_sort(), now->second.expr.get_sort()) ||
          !known(left->second.expr))
        continue;
      value.expr = z3::ite(leaves_by(j), in(left->second.expr, exit_k), value.expr);
    }
    state_.env.insert_or_assign(key, value);
  }
}

namespace {

// The conjuncts of `e`, through nested conjunctions.
void conjuncts(const z3::expr &e, std::vector<z3::expr> &out) {
  if (e.is_app() && e.decl().decl_kind() == Z3_OP_AND) {
    for (unsigned i = 0; i < e.num_args(); ++i)
      conjuncts(e.arg(i), out);
    return;
  }
  out.push_back(e);
}

} // namespace

std::optional<z3::expr> Builder::onlyIteration(const z3::expr &pc, const z3::expr &k) const {
  if (arith_.mode() == OverflowMode::Wrap)
    return std::nullopt;
  std::vector<z3::expr> parts;
  conjuncts(pc, parts);
  z3::expr_vector from(ctx()), at_zero(ctx()), at_next(ctx());
  from.push_back(k);
  at_zero.push_back(zero64());
  at_next.push_back(k + 1);
  for (const z3::expr &part : parts) {
    if (!part.is_app() || part.decl().decl_kind() != Z3_OP_EQ || !part.arg(0).is_int())
      continue;
    // part is f(k) == 0 with f(k) = coefficient * k + rest, coefficient +-1.
    z3::expr f = part.arg(0) - part.arg(1);
    z3::expr rest = z3::expr(f).substitute(from, at_zero).simplify();
    std::optional<int64_t> coefficient =
        Arith::numeral((z3::expr(f).substitute(from, at_next) - f).simplify(), true);
    if (!coefficient || (*coefficient != 1 && *coefficient != -1))
      continue;
    std::optional<int64_t> residue =
        Arith::numeral((f - (*coefficient == 1 ? k : -k) - rest).simplify(), true);
    if (!residue || *residue != 0)
      continue;
    return (*coefficient == 1 ? -rest : rest).simplify();
  }
  return std::nullopt;
}

std::optional<z3::expr> Builder::monotoneBound(const clang::Stmt &loop,
                                               const clang::VarDecl &var,
                                               const z3::expr &at_entry,
                                               const z3::expr &value, IntType type) const {
  // With wrap-around arithmetic a step may wrap; the default model states
  // that nothing overflows.
  if (arith_.mode() == OverflowMode::Wrap || var.getType()->isReferenceType())
    return std::nullopt;
  std::optional<StepSummary> steps = summarizeSteps(writesOf(loop, var), var, ast_);
  if (!steps || steps->direction == 0)
    return std::nullopt;
  bool is_signed = type.is_signed;
  z3::expr zero = arith_.constant(0, type);
  z3::expr bound = steps->direction > 0 ? arith_.lessEq(at_entry, value, is_signed)
                                        : arith_.lessEq(value, at_entry, is_signed);
  if (!steps->scales)
    return bound;
  // Scaling keeps a nonnegative value nonnegative and moves it one way.
  z3::expr nonnegative = arith_.lessEq(zero, at_entry, is_signed);
  return z3::implies(nonnegative, bound && arith_.lessEq(zero, value, is_signed));
}

std::vector<Builder::CountedVariable>
Builder::countedVariables(const clang::Stmt &loop, const std::set<std::string> &keys) const {
  std::vector<CountedVariable> counted;
  // With wrap-around arithmetic a count may wrap.
  if (arith_.mode() == OverflowMode::Wrap)
    return counted;
  for (const std::string &key : keys) {
    auto local = locals_.find(key);
    auto *var = local == locals_.end() ? nullptr
                                       : dyn_cast_or_null<clang::VarDecl>(local->second.first);
    if (!var)
      continue;
    if (std::optional<int64_t> amount = boundedIncrement(loop, *var, ast_))
      counted.push_back({key, var, *amount});
  }
  return counted;
}

void Builder::boundIncrements(const std::vector<CountedVariable> &counted, const LoopShape &shape,
                              const State &entry, const z3::expr &iterations,
                              bool condition_ran) {
  for (const CountedVariable &count : counted) {
    auto before = entry.env.find(count.key);
    auto now = state_.env.find(count.key);
    if (before == entry.env.end() || now == state_.env.end() ||
        before->second.kind != Value::Kind::Int || now->second.kind != Value::Kind::Int)
      continue;
    // A count in the condition also ran at the test that let the thread out.
    z3::expr runs = iterations;
    if (condition_ran && shape.cond && !writesOf(*shape.cond, *count.var).empty())
      runs = arith_.add(runs, arith_.constant(1, kInt64));
    z3::expr most = arith_.add(asInt(before->second, kInt64),
                               arith_.mul(runs, arith_.constant(count.amount, kInt64)));
    model_.thread_facts.push_back(!entry.pc ||
                                  arith_.lessEq(asInt(now->second, kInt64), most, true));
  }
}

std::optional<Builder::SharedExit> Builder::sharedExit(const z3::expr &enters,
                                                      const std::vector<State> &breaks,
                                                      const z3::expr &entry_pc,
                                                      const z3::expr &k,
                                                      const z3::expr &trips) {
  std::vector<z3::expr> in_loop = iterations_;
  in_loop.push_back(k);
  bool per_block = false;
  auto alike = [&](const z3::expr &condition) {
    if (!symbols_.isThreadDependent(condition, in_loop))
      return true;
    per_block = true;
    return blockUniform(condition, in_loop);
  };
  if (!alike(enters))
    return std::nullopt;
  // Every thread in the loop took the path into it: there, that path's
  // condition is true, whatever else a break's condition says.
  z3::expr_vector from(ctx()), to(ctx());
  from.push_back(entry_pc);
  to.push_back(ctx().bool_val(true));
  for (const State &at_break : breaks)
    if (!alike(z3::expr(at_break.pc).substitute(from, to)))
      return std::nullopt;
  if (!per_block)
    return SharedExit{trips, false};
  return SharedExit{uniformInLoops("kexit", kInt64, iterations_, true), true};
}

std::vector<Builder::SharedLoopValue>
Builder::havoc(const std::set<std::string> &roots, const clang::Stmt &loop,
               const std::vector<z3::expr> &iterations) {
  std::vector<SharedLoopValue> shared;
  for (const std::string &key : roots) {
    auto local = locals_.find(key);
    if (local == locals_.end() || local->second.second->isReferenceType())
      continue; // a reference is never reseated; its referent is a root too
    auto *var = dyn_cast_or_null<clang::VarDecl>(local->second.first);
    if (isAggregate(key) || !var) {
      forgetLocal(key);
      continue;
    }
    auto it = state_.env.find(key);
    v1::Imprecision why;
    why.set_kind(v1::IMPRECISION_KIND_LOOP_OVERAPPROXIMATED);
    why.set_detail("value of '" + var->getNameAsString() +
                   "' in a loop is over-approximated");
    *why.mutable_location() = locationOf(loop);
    if (it != state_.env.end() && it->second.kind == Value::Kind::Pointer) {
      // A pointer advanced in a loop keeps its object; its offset is unknown.
      it->second.expr = symbols_.freshLocal("ptroff", kInt64);
      model_.imprecisions[it->second.expr.decl().name().str()] = why;
      continue;
    }
    IntType t = intTypeOf(var->getType());
    // A value that enters alike stays alike for all threads in the same
    // iterations (of one block, when it names the block), unless a walk
    // found an iteration that leaves it otherwise.
    bool kept_alike = it != state_.env.end() && !revisions_.varying_loop_values.count({&loop, var});
    bool uniform = kept_alike && !revisions_.block_loop_values.count({&loop, var}) &&
                   !symbols_.isThreadDependent(it->second.expr, iterations);
    bool per_block = kept_alike && !uniform && blockUniform(it->second.expr, iterations);
    z3::expr value = uniform || per_block
                         ? uniformInLoops(var->getNameAsString(), t, iterations, per_block)
                         : symbols_.freshLocal(var->getNameAsString(), t);
    model_.imprecisions[value.decl().name().str()] = why;
    Value held = var->getType()->isBooleanType() ? boolValue(arith_.toBool(value))
                                                 : intValue(value, t);
    if (uniform || per_block)
      shared.push_back({key, var, per_block, held.expr});
    if (it != state_.env.end() && it->second.kind == Value::Kind::Int &&
        !var->getType()->isBooleanType()) {
      z3::expr at_entry = asInt(it->second, t);
      if (auto bound = monotoneBound(loop, *var, at_entry, value, t))
        model_.thread_facts.push_back(*bound);
      // `size <<= 1`, `stride >>= 1`: a power of two stays one (or zero).
      if (scalesByPowersOfTwo(writesOf(loop, *var), *var, ast_))
        model_.thread_facts.push_back(
            z3::implies(arith_.powerOfTwoOrZero(at_entry, t), arith_.powerOfTwoOrZero(value, t)));
    }
    state_.env.insert_or_assign(key, held);
  }
  return shared;
}

void Builder::confirmSharedLoopValues(const clang::Stmt &loop,
                                      const std::vector<SharedLoopValue> &shared,
                                      const std::vector<State> &continues,
                                      const z3::expr &head_pc) {
  std::vector<const State *> next_heads;
  if (!state_.pc.is_false())
    next_heads.push_back(&state_);
  for (const State &at_continue : continues)
    if (!at_continue.pc.is_false())
      next_heads.push_back(&at_continue);
  // Inside the loop its head's condition holds: what a path adds to it
  // decides which way into the next iteration a thread takes.
  z3::expr_vector from(ctx()), to(ctx());
  from.push_back(head_pc);
  to.push_back(ctx().bool_val(true));
  auto alike = [&](const z3::expr &e, bool per_block) {
    return per_block ? blockUniform(e, iterations_) : !symbols_.isThreadDependent(e, iterations_);
  };
  auto kept_alike = [&](const SharedLoopValue &value, bool per_block) {
    bool one_value = true;
    for (const State *next : next_heads) {
      auto now = next->env.find(value.key);
      if (now == next->env.end() || !alike(now->second.expr, per_block))
        return false;
      auto first = next_heads.front()->env.find(value.key);
      one_value = one_value && first != next_heads.front()->env.end() &&
                  z3::eq(first->second.expr, now->second.expr);
    }
    // Different values on different ways in are alike only if the ways
    // are taken alike.
    if (!one_value)
      for (const State *next : next_heads)
        if (!alike(z3::expr(next->pc).substitute(from, to), per_block))
          return false;
    return true;
  };
  for (const SharedLoopValue &value : shared) {
    if (kept_alike(value, value.per_block))
      continue;
    // A value alike in the whole launch that an iteration leaves alike only
    // within each block (`found += total`, a block's total) is a value per
    // block; otherwise one per thread.
    if (!value.per_block && kept_alike(value, true))
      revisions_.block_loop_values.insert({&loop, value.var});
    else
      revisions_.varying_loop_values.insert({&loop, value.var});
    revised_ = true;
  }
}

namespace {

// What a statement may write among the thread's locals: variables it
// assigns (or fields and elements of them), whether it writes through a
// pointer or reference (its own, or a callee's), and the locals whose
// address it takes.
struct LocalWrites : clang::DynamicRecursiveASTVisitor {
  explicit LocalWrites(const clang::SourceManager &sources) : sources(sources) {}
  const clang::SourceManager &sources;
  std::set<const clang::VarDecl *> assigned, addressed;
  std::set<const clang::FunctionDecl *> callees;
  // Writes through a local pointer variable (`p[i] = v`, `*p = v`,
  // `p->f = v`), which reach a local only if the pointer may point to one;
  // any other write through a pointer or reference may.
  std::set<const clang::VarDecl *> through_locals;
  bool through_pointer = false;

  // The local pointer variable that `e`, an address, is read from.
  static const clang::VarDecl *pointerVariable(const clang::Expr *e) {
    auto *ref = dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
    auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    return var && var->hasLocalStorage() && var->getType()->isPointerType() ? var : nullptr;
  }
  // For a write through a pointer, the local pointer variable it goes
  // through, if that is all it does.
  static const clang::VarDecl *writtenThrough(const clang::Expr *e) {
    e = e->IgnoreParenImpCasts();
    if (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(e))
      return pointerVariable(subscript->getBase());
    if (auto *deref = dyn_cast<clang::UnaryOperator>(e);
        deref && deref->getOpcode() == clang::UO_Deref)
      return pointerVariable(deref->getSubExpr());
    if (auto *member = dyn_cast<clang::MemberExpr>(e); member && member->isArrow())
      return pointerVariable(member->getBase());
    return nullptr;
  }

  // The local variable whose storage `e` designates, if any.
  static const clang::VarDecl *rootOf(const clang::Expr *e, bool &indirect) {
    while (true) {
      e = e->IgnoreParenImpCasts();
      if (auto *member = dyn_cast<clang::MemberExpr>(e); member && !member->isArrow()) {
        e = member->getBase();
      } else if (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(e);
                 subscript && subscript->getBase()->IgnoreParenImpCasts()->getType()->isArrayType()) {
        e = subscript->getBase();
      } else if (auto *ref = dyn_cast<clang::DeclRefExpr>(e)) {
        auto *var = dyn_cast<clang::VarDecl>(ref->getDecl());
        indirect = !var || var->getType()->isReferenceType();
        return var && var->hasLocalStorage() && !indirect ? var : nullptr;
      } else {
        indirect = true;
        return nullptr;
      }
    }
  }
  void written(const clang::Expr *e) {
    bool indirect = false;
    if (const clang::VarDecl *var = rootOf(e, indirect))
      assigned.insert(var);
    if (!indirect)
      return;
    if (const clang::VarDecl *pointer = writtenThrough(e))
      through_locals.insert(pointer);
    else
      through_pointer = true;
  }
  // For a pointer handed to a callee, the local pointer variable it is
  // computed from (`&p[i]`, `p + i`, `p`), if that is all it is.
  static const clang::VarDecl *passedThrough(const clang::Expr *e) {
    e = e->IgnoreParenImpCasts();
    if (auto *address = dyn_cast<clang::UnaryOperator>(e);
        address && address->getOpcode() == clang::UO_AddrOf)
      return writtenThrough(address->getSubExpr());
    if (auto *offset = dyn_cast<clang::BinaryOperator>(e);
        offset && offset->isAdditiveOp() && offset->getType()->isPointerType())
      return passedThrough(offset->getLHS()->getType()->isPointerType() ? offset->getLHS()
                                                                        : offset->getRHS());
    return pointerVariable(e);
  }
  void addressTaken(const clang::Expr *e) {
    bool indirect = false;
    if (const clang::VarDecl *var = rootOf(e, indirect))
      addressed.insert(var);
  }
  // An array indexed (`bins[c]`) decays to a pointer that goes nowhere
  // else: its address is not taken.
  std::set<const clang::Expr *> indexed_arrays;
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *subscript) override {
    indexed_arrays.insert(subscript->getBase()->IgnoreParens());
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *op) override {
    if (op->isAssignmentOp())
      written(op->getLHS());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *op) override {
    if (op->isIncrementDecrementOp())
      written(op->getSubExpr());
    if (op->getOpcode() == clang::UO_AddrOf)
      addressTaken(op->getSubExpr());
    return true;
  }
  bool VisitImplicitCastExpr(clang::ImplicitCastExpr *cast) override {
    if (cast->getCastKind() == clang::CK_ArrayToPointerDecay && !indexed_arrays.count(cast))
      addressTaken(cast->getSubExpr());
    return true;
  }
  bool VisitDeclStmt(clang::DeclStmt *decl) override {
    for (const clang::Decl *d : decl->decls())
      if (auto *var = dyn_cast<clang::VarDecl>(d)) {
        assigned.insert(var);
        if (var->getType()->isReferenceType() && var->getInit())
          addressTaken(var->getInit());
      }
    return true;
  }
  // Whether argument `i` of `call` binds a `const T &` parameter, through
  // which the callee cannot write it.
  static bool boundToConstReference(const clang::CallExpr &call, unsigned i) {
    const clang::FunctionDecl *callee = call.getDirectCallee();
    if (!callee || isa<clang::CXXOperatorCallExpr>(call) || i >= callee->getNumParams())
      return false;
    clang::QualType type = callee->getParamDecl(i)->getType();
    return type->isLValueReferenceType() && type.getNonReferenceType().isConstQualified();
  }
  bool VisitCallExpr(clang::CallExpr *call) override {
    if (auto *op = dyn_cast<clang::CXXOperatorCallExpr>(call);
        op && op->isAssignmentOp() && op->getNumArgs() > 0)
      written(op->getArg(0));
    if (auto *member = dyn_cast<clang::CXXMemberCallExpr>(call))
      if (const clang::Expr *object = member->getImplicitObjectArgument();
          object && !object->getType()->isPointerType())
        addressTaken(object);
    const clang::FunctionDecl *callee = call->getDirectCallee();
    // The toolkit's functions (atomics, intrinsics) are modelled by name,
    // not walked, here as in the model: they write through their
    // arguments only.
    const clang::FunctionDecl *definition = nullptr;
    bool walked = callee && callee->hasBody(definition) &&
                  !sources.isInSystemHeader(definition->getLocation());
    for (unsigned i = 0; i < call->getNumArgs(); ++i) {
      const clang::Expr *arg = call->getArg(i);
      if (arg->isGLValue() && !boundToConstReference(*call, i))
        addressTaken(arg);
      if (walked)
        continue;
      if (callee && arg->getType()->isPointerType()) {
        // `atomicAdd(&out[i], v)`: a write where a local pointer points.
        if (const clang::VarDecl *pointer = passedThrough(arg))
          through_locals.insert(pointer);
        else
          through_pointer = true;
      } else {
        through_pointer |= arg->getType()->isPointerType() || arg->isGLValue();
      }
    }
    if (walked && callees.insert(definition).second)
      TraverseStmt(definition->getBody());
    if (!callee)
      through_pointer = true;
    return true;
  }
};

} // namespace

std::set<std::string> Builder::assignedIn(const clang::Stmt *stmt) {
  std::set<std::string> roots;
  if (!stmt)
    return roots;
  LocalWrites writes(ast_.getSourceManager());
  writes.TraverseStmt(const_cast<clang::Stmt *>(stmt));
  // localKey numbers a local the first time it is asked: in the order of
  // the source, not of the declarations' addresses, which vary from run to
  // run with the heap.
  const clang::SourceManager &sources = ast_.getSourceManager();
  auto inSourceOrder = [&](const std::set<const clang::VarDecl *> &vars) {
    std::vector<const clang::VarDecl *> out(vars.begin(), vars.end());
    std::sort(out.begin(), out.end(), [&](const clang::VarDecl *a, const clang::VarDecl *b) {
      return sources.isBeforeInTranslationUnit(a->getLocation(), b->getLocation());
    });
    return out;
  };
  for (const clang::VarDecl *var : inSourceOrder(writes.assigned))
    roots.insert(localKey(*var));
  // A pointer the statement does not assign, pointing into shared or
  // global memory now, writes there on every iteration: a helper's
  // `out[k] = v` loop leaves the helper object's fields as they were.
  for (const clang::VarDecl *pointer : inSourceOrder(writes.through_locals)) {
    auto now = state_.env.find(localKey(*pointer));
    bool into_memory = !writes.assigned.count(pointer) && now != state_.env.end() &&
                       now->second.kind == Value::Kind::Pointer && now->second.object &&
                       now->second.object != unknown_;
    writes.through_pointer |= !into_memory;
  }
  if (writes.through_pointer) {
    roots.insert(exposed_.begin(), exposed_.end());
    for (const clang::VarDecl *var : inSourceOrder(writes.addressed))
      roots.insert(localKey(*var));
  }
  return roots;
}

} // namespace gpurace::analyzer::builder
