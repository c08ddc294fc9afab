#include "analyzer/model/KernelModelBuilder.h"

#include "analyzer/model/SourceLocations.h"
#include "analyzer/model/SyncFunctions.h"
#include "analyzer/model/VariableWrites.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecordLayout.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

#include <array>
#include <map>
#include <optional>
#include <set>

namespace gpurace::analyzer {

IntType intTypeOf(clang::QualType type, const clang::ASTContext &ast) {
  type = type.getCanonicalType();
  if (type->isPointerType() || !type->isIntegralOrEnumerationType())
    return kInt64;
  unsigned width = static_cast<unsigned>(ast.getTypeSize(type));
  if (width != 8 && width != 16 && width != 32 && width != 64)
    width = 64;
  return {width, type->isSignedIntegerOrEnumerationType()};
}

std::string parameterSymbolName(const std::string &parameter) {
  return "param:" + parameter;
}

std::string pointerBaseSymbolName(const std::string &parameter) {
  return "base:" + parameter;
}

namespace {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;

// A value during symbolic execution: an integer or Bool term, or a pointer
// into a memory object (object plus byte offset).
struct Value {
  enum class Kind { Int, Bool, Pointer };
  Kind kind = Kind::Int;
  z3::expr expr;
  IntType type = kInt32;
  const MemoryObject *object = nullptr;
};

// Where an lvalue designates: memory that threads share, a variable of
// this thread, or something the model does not follow.
struct Place {
  enum class Kind { Memory, Local, Other };
  Kind kind = Kind::Other;
  const MemoryObject *object = nullptr;
  std::optional<z3::expr> offset;
  std::string local_key;
};

struct Frame {
  const clang::FunctionDecl *function;
  v1::CallFrame call;
  std::vector<std::pair<z3::expr, Value>> returns; // (path condition, value)
};

struct State {
  std::map<std::string, Value> env;
  z3::expr pc;
  z3::expr block, warp, grid; // synchronization counters
  std::map<LaneGroup, z3::expr> masked_warp; // by partial warp group
};

// Counts the synchronization a statement executes on every path, when that
// number does not depend on the path; used for the per-iteration stride of
// the counters in loops.
struct SyncCount {
  bool exact = true;
  int block = 0, warp = 0, grid = 0;
  std::map<LaneGroup, int> masked_warp;
  bool any() const { return block || warp || grid || !masked_warp.empty(); }
  void add(const SyncCount &other) {
    exact &= other.exact;
    block += other.block;
    warp += other.warp;
    grid += other.grid;
    for (const auto &[mask, n] : other.masked_warp)
      masked_warp[mask] += n;
  }
};


// cuda::atomic_thread_fence's scope argument; the intrinsics' own scope
// otherwise.
v1::MemoryScope fenceScope(const clang::Expr &call, v1::MemoryScope declared,
                           const clang::ASTContext &ast) {
  auto *c = dyn_cast<clang::CallExpr>(&call);
  if (!c || c->getNumArgs() < 2 || isa<clang::CXXDefaultArgExpr>(c->getArg(1)))
    return declared;
  return libcuScope(c->getArg(1), ast).value_or(declared);
}

class Builder {
public:
  Builder(const clang::FunctionDecl &kernel, clang::ASTContext &ast,
          SymbolSpace &symbols, const ModelOptions &options)
      : kernel_(kernel), ast_(ast), sources_(ast.getSourceManager()),
        symbols_(symbols), arith_(symbols.arith()), options_(options),
        state_{{}, ctx().bool_val(true), zero64(), zero64(), zero64()} {}

  KernelModel build();
  // Binds a parameter of scalar or pointer type, or the fields of a struct
  // passed by value, under `key` (the parameter's local key, or the key of
  // a field below it).
  void bindParameter(const std::string &key, const std::string &name,
                     clang::QualType type, unsigned depth);

private:
  z3::context &ctx() const { return symbols_.context(); }
  z3::expr zero64() const { return arith_.constant(0, kInt64); }

  // --- values -------------------------------------------------------------
  IntType intTypeOf(clang::QualType type) const;
  Value intValue(z3::expr e, IntType t) const { return {Value::Kind::Int, e, t}; }
  Value boolValue(z3::expr e) const { return {Value::Kind::Bool, e, kInt32}; }
  Value freshValue(clang::QualType type, v1::ImprecisionKind why,
                   const std::string &detail, const clang::Stmt *at);
  z3::expr asInt(const Value &v, IntType to) const;
  z3::expr asBool(const Value &v) const;

  // --- statements ---------------------------------------------------------
  void walk(const clang::Stmt *stmt);
  void walkDecl(const clang::VarDecl &var);
  void walkIf(const clang::IfStmt &stmt);
  void walkFor(const clang::ForStmt &stmt);
  void walkLoop(const clang::Stmt &loop, const clang::Stmt *body,
                const clang::Expr *cond, const clang::Stmt *inc,
                const clang::VarDecl *induction, std::optional<Value> start,
                std::optional<z3::expr> step);
  void walkReturn(const clang::ReturnStmt &stmt);
  void endPath() { state_.pc = ctx().bool_val(false); }

  // --- expressions --------------------------------------------------------
  Value eval(const clang::Expr *expr);
  Value evalCast(const clang::CastExpr &cast);
  Value evalUnary(const clang::UnaryOperator &op);
  Value evalBinary(const clang::BinaryOperator &op);
  Value evalArithmetic(clang::BinaryOperatorKind op, const Value &a,
                       const Value &b, clang::QualType type,
                       const clang::Expr *at);
  Value evalConditional(const clang::AbstractConditionalOperator &op);
  Value evalCall(const clang::CallExpr &call);
  // Member calls of libcu++'s cuda::atomic_ref and cuda::atomic; nothing
  // when `call` is not one.
  std::optional<Value> evalScopedAtomic(const clang::CXXMemberCallExpr &call,
                                        bool value_used);
  Value evalDeclRef(const clang::DeclRefExpr &ref);
  Value assign(const clang::Expr *lhs, const Value &value);
  Value assignTo(const Place &where, const clang::Expr *lhs, const Value &value);
  // The current value of `where` for a read-modify-write: the write is the
  // access recorded, so no separate read is.
  Value valueForUpdate(const Place &where, const clang::Expr *lhs);
  Value load(const clang::Expr *lvalue_expr);
  // What a read of a __shared__ scalar sees when one thread per block wrote
  // it before a barrier the reader has passed (`if (tid == 0) last = ...;
  // __syncthreads(); if (last) ...`): the writer's value, a function of the
  // block. Nothing when the writes do not have that shape.
  std::optional<Value> broadcastValue(const MemoryObject &object);
  // `e` as evaluated by the thread of the reader's block at `writer`
  // coordinates: other thread-local symbols become functions of the block.
  std::optional<z3::expr> asWriter(const z3::expr &e, const std::array<int64_t, 3> &writer);
  std::optional<Value> builtinCoordinate(const clang::Expr *expr);
  Place place(const clang::Expr *expr);
  Value pointerFrom(const Place &where, const clang::Expr *at);
  Value inlineCall(const clang::FunctionDecl &callee,
                   const clang::CallExpr &call, const clang::Expr *object);

  // --- model output -------------------------------------------------------
  void recordAccess(const Place &where, const clang::Expr *expr,
                    v1::AccessKind kind, v1::AtomicOp op, v1::MemoryScope scope);
  void recordSync(const clang::Expr &call, const SyncFunction &sync);
  void recordFence(const clang::Expr &at, v1::MemoryScope scope);
  std::optional<LaneGroup> warpBarrierLanes(const clang::Expr &call,
                                           const SyncFunction &sync) const;
  const MemoryObject *objectFor(const clang::ValueDecl &decl,
                                MemoryObject::Kind kind, v1::MemorySpace space,
                                int parameter_index);
  const MemoryObject *unknownObject();
  bool handsOutTickets(const clang::CallExpr &call, v1::AtomicOp op) const;
  std::string currentFunctionName() const;
  v1::SourceLocation locationOf(const clang::Stmt &stmt) const;
  std::string localKey(const clang::ValueDecl &decl);
  SyncCount countSync(const clang::Stmt *stmt) const;
  std::set<const clang::VarDecl *> assignedIn(const clang::Stmt *stmt) const;
  // What a loop's writes keep true of a variable it over-approximates:
  // `offset *= 2` from 1 never goes below 1, `s >>= 1` from n stays in
  // [0, n]. Nothing when the writes move it both ways or otherwise.
  std::optional<z3::expr> monotoneBound(const clang::Stmt &loop, const clang::VarDecl &var,
                                        const z3::expr &at_entry, const z3::expr &value,
                                        IntType type) const;
  void havoc(const std::set<const clang::VarDecl *> &vars,
             const clang::Stmt &loop, const z3::expr &iteration);
  void merge(const State &then_state, const State &else_state,
             const z3::expr &condition);
  // The partial-mask sync counter of `state` (zero before the first one).
  z3::expr maskedCount(const State &state, const LaneGroup &mask) const {
    auto it = state.masked_warp.find(mask);
    return it == state.masked_warp.end() ? zero64() : it->second;
  }

  const clang::FunctionDecl &kernel_;
  clang::ASTContext &ast_;
  const clang::SourceManager &sources_;
  SymbolSpace &symbols_;
  const Arith &arith_;
  ModelOptions options_;
  KernelModel model_;
  State state_;
  std::vector<Frame> frames_;
  std::vector<z3::expr> iterations_;
  std::map<const clang::Decl *, const MemoryObject *> objects_;
  const MemoryObject *unknown_ = nullptr;
  // Writes to __shared__ scalars so far, for values that one thread of a
  // block broadcasts to the others across a barrier.
  struct SharedScalarWrite {
    Value value;
    z3::expr pc;
    z3::expr block_barriers;
    bool in_loop;
  };
  std::set<const MemoryObject *> shared_scalars_;
  std::map<const MemoryObject *, std::vector<SharedScalarWrite>> scalar_writes_;
  std::map<const MemoryObject *, unsigned> scalar_write_sites_;
  unsigned order_ = 0;
  std::map<std::string, unsigned> site_ordinals_;
  std::map<const clang::Decl *, size_t> local_ids_;
  // The expression statement being walked: its value is discarded.
  const clang::Expr *discarded_ = nullptr;
};

// --- values ---------------------------------------------------------------

IntType Builder::intTypeOf(clang::QualType type) const {
  return analyzer::intTypeOf(type, ast_);
}

Value Builder::freshValue(clang::QualType type, v1::ImprecisionKind why,
                          const std::string &detail, const clang::Stmt *at) {
  IntType t = intTypeOf(type);
  bool pointer = !type.isNull() && type->isPointerType();
  z3::expr symbol = symbols_.freshLocal(pointer ? "ptr" : "v", t);
  v1::Imprecision imprecision;
  // Accesses through a pointer the analysis cannot follow may touch any
  // global memory: they are checked against everything, never dropped.
  imprecision.set_kind(pointer ? v1::IMPRECISION_KIND_UNRESOLVED_POINTER : why);
  imprecision.set_detail(pointer && detail.rfind("value ", 0) == 0
                             ? "pointer " + detail.substr(6)
                             : detail);
  if (at)
    *imprecision.mutable_location() = locationOf(*at);
  model_.imprecisions[symbol.decl().name().str()] = imprecision;
  if (pointer)
    return Value{Value::Kind::Pointer, symbol, kInt64, unknownObject()};
  if (!type.isNull() && type->isBooleanType())
    return boolValue(arith_.toBool(arith_.convert(symbol, t, t)));
  return intValue(symbol, t);
}

z3::expr Builder::asInt(const Value &v, IntType to) const {
  switch (v.kind) {
  case Value::Kind::Bool:
    return arith_.fromBool(v.expr, to);
  case Value::Kind::Pointer:
  case Value::Kind::Int:
    return arith_.convert(v.expr, v.type, to);
  }
  return v.expr;
}

z3::expr Builder::asBool(const Value &v) const {
  if (v.kind == Value::Kind::Bool)
    return v.expr;
  return arith_.toBool(v.expr);
}

// --- statements -------------------------------------------------------------

void Builder::walk(const clang::Stmt *stmt) {
  if (!stmt)
    return;
  if (auto *compound = dyn_cast<clang::CompoundStmt>(stmt)) {
    for (const clang::Stmt *child : compound->body())
      walk(child);
  } else if (auto *decl = dyn_cast<clang::DeclStmt>(stmt)) {
    for (const clang::Decl *d : decl->decls())
      if (auto *var = dyn_cast<clang::VarDecl>(d))
        walkDecl(*var);
  } else if (auto *if_stmt = dyn_cast<clang::IfStmt>(stmt)) {
    walkIf(*if_stmt);
  } else if (auto *for_stmt = dyn_cast<clang::ForStmt>(stmt)) {
    walkFor(*for_stmt);
  } else if (auto *while_stmt = dyn_cast<clang::WhileStmt>(stmt)) {
    walkLoop(*while_stmt, while_stmt->getBody(), while_stmt->getCond(),
             nullptr, nullptr, std::nullopt, std::nullopt);
  } else if (auto *do_stmt = dyn_cast<clang::DoStmt>(stmt)) {
    // The condition runs after the body: as the loop's increment.
    walkLoop(*do_stmt, do_stmt->getBody(), nullptr, do_stmt->getCond(), nullptr,
             std::nullopt, std::nullopt);
  } else if (auto *ret = dyn_cast<clang::ReturnStmt>(stmt)) {
    walkReturn(*ret);
  } else if (isa<clang::BreakStmt, clang::ContinueStmt>(stmt)) {
    // The rest of this iteration is not executed on this path; the loop's
    // exit state is over-approximated anyway.
    endPath();
  } else if (auto *sw = dyn_cast<clang::SwitchStmt>(stmt)) {
    eval(sw->getCond());
    // Any case may run: walk the cases as a sequence under the same path,
    // which over-approximates the accesses they make.
    walk(sw->getBody());
  } else if (auto *c = dyn_cast<clang::SwitchCase>(stmt)) {
    walk(c->getSubStmt());
  } else if (auto *label = dyn_cast<clang::LabelStmt>(stmt)) {
    walk(label->getSubStmt());
  } else if (auto *attributed = dyn_cast<clang::AttributedStmt>(stmt)) {
    walk(attributed->getSubStmt());
  } else if (auto *expr = dyn_cast<clang::Expr>(stmt)) {
    discarded_ = expr->IgnoreParenCasts();
    eval(expr);
  }
}

void Builder::walkDecl(const clang::VarDecl &var) {
  if (var.hasAttr<clang::CUDASharedAttr>() || var.isStaticLocal())
    return; // __shared__ arrays are memory objects, created on first use
  const clang::Expr *init = var.getInit();
  clang::QualType type = var.getType();
  if (isAtomicRef(type) && init) {
    // cuda::atomic_ref<T, S> r(x): r names x, like a reference.
    const clang::Expr *referent = init->IgnoreImplicit();
    if (auto *construct = dyn_cast<clang::CXXConstructExpr>(referent))
      if (construct->getNumArgs() >= 1)
        referent = construct->getArg(0);
    state_.env.insert_or_assign(localKey(var), pointerFrom(place(referent), referent));
    return;
  }
  if (type->isRecordType() || type->isArrayType()) {
    // Thread-private aggregates: their fields are locals keyed by path.
    if (init)
      eval(init);
    return;
  }
  if (type->isReferenceType()) {
    // A reference names its referent: keep the place as a pointer.
    if (init)
      state_.env.insert_or_assign(localKey(var), pointerFrom(place(init), init));
    return;
  }
  Value value = init ? eval(init)
                     : freshValue(type, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                                  "uninitialized variable " + var.getNameAsString(),
                                  nullptr);
  if (value.kind != Value::Kind::Pointer && !type->isBooleanType() &&
      type->isIntegralOrEnumerationType())
    value = intValue(asInt(value, intTypeOf(type)), intTypeOf(type));
  state_.env.insert_or_assign(localKey(var), value);
}

void Builder::merge(const State &then_state, const State &else_state,
                    const z3::expr &condition) {
  state_.pc = (then_state.pc || else_state.pc).simplify();
  state_.block = z3::ite(condition, then_state.block, else_state.block);
  state_.warp = z3::ite(condition, then_state.warp, else_state.warp);
  state_.grid = z3::ite(condition, then_state.grid, else_state.grid);
  state_.masked_warp.clear();
  for (const State *side : {&then_state, &else_state})
    for (const auto &[mask, unused] : side->masked_warp)
      state_.masked_warp.insert_or_assign(
          mask, z3::ite(condition, maskedCount(then_state, mask),
                        maskedCount(else_state, mask)));
  state_.env = else_state.env;
  for (const auto &[key, then_value] : then_state.env) {
    auto it = state_.env.find(key);
    if (it == state_.env.end()) {
      state_.env.insert_or_assign(key, then_value);
      continue;
    }
    Value &else_value = it->second;
    if (z3::eq(then_value.expr, else_value.expr) &&
        then_value.object == else_value.object)
      continue;
    if (then_value.kind == Value::Kind::Pointer &&
        then_value.object != else_value.object) {
      else_value.object = unknownObject();
    }
    if (then_value.kind == Value::Kind::Bool || else_value.kind == Value::Kind::Bool) {
      else_value = boolValue(z3::ite(condition, asBool(then_value), asBool(else_value)));
      continue;
    }
    IntType t = then_value.type;
    else_value.expr = z3::ite(condition, asInt(then_value, t), asInt(else_value, t));
    else_value.type = t;
  }
}

void Builder::walkIf(const clang::IfStmt &stmt) {
  if (stmt.getInit())
    walk(stmt.getInit());
  if (stmt.getConditionVariableDeclStmt())
    walk(stmt.getConditionVariableDeclStmt());
  z3::expr condition = asBool(eval(stmt.getCond()));
  State before = state_;
  state_.pc = before.pc && condition;
  walk(stmt.getThen());
  State then_state = state_;
  state_ = before;
  state_.pc = before.pc && !condition;
  walk(stmt.getElse());
  State else_state = state_;
  merge(then_state, else_state, condition);
}

void Builder::walkReturn(const clang::ReturnStmt &stmt) {
  if (const clang::Expr *value = stmt.getRetValue()) {
    Value result = eval(value);
    if (!frames_.empty())
      frames_.back().returns.emplace_back(state_.pc, result);
  }
  endPath();
}

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

void Builder::walkFor(const clang::ForStmt &stmt) {
  std::optional<CanonicalLoop> canonical = canonicalForm(stmt);
  if (canonical && !assignedIn(stmt.getBody()).count(canonical->var)) {
    Value start = eval(canonical->start);
    z3::expr step = canonical->step
                        ? asInt(eval(canonical->step), kInt64)
                        : arith_.constant(1, kInt64);
    if (canonical->decrement)
      step = arith_.sub(arith_.constant(0, kInt64), step);
    walkLoop(stmt, stmt.getBody(), stmt.getCond(), nullptr, canonical->var,
             start, step);
    return;
  }
  walk(stmt.getInit());
  walkLoop(stmt, stmt.getBody(), stmt.getCond(), stmt.getInc(), nullptr,
           std::nullopt, std::nullopt);
}

// Loops: each thread is in its own iteration k >= 0 of each loop. Variables
// the body assigns get, at the head of iteration k, either a value shared
// by all threads in iteration k (when nothing thread-specific flows into
// them) or a fresh thread-local value. The synchronization counters at the
// head of iteration k are entry + k * (synchronization per iteration), so
// accesses late in iteration k and early in iteration k+1 are compared
// exactly, which is the back edge PUG checks.
void Builder::walkLoop(const clang::Stmt &loop, const clang::Stmt *body,
                       const clang::Expr *cond, const clang::Stmt *inc,
                       const clang::VarDecl *induction,
                       std::optional<Value> start, std::optional<z3::expr> step) {
  State entry = state_;
  z3::expr k = symbols_.freshLocal("k", kInt64);
  iterations_.push_back(k);
  model_.thread_facts.push_back(k >= 0 || !entry.pc);

  std::set<const clang::VarDecl *> assigned = assignedIn(body);
  if (inc) {
    auto more = assignedIn(inc);
    assigned.insert(more.begin(), more.end());
  }
  assigned.erase(induction);
  havoc(assigned, loop, k);
  if (induction) {
    IntType t = intTypeOf(induction->getType());
    z3::expr value = arith_.add(asInt(*start, kInt64), arith_.mul(k, *step));
    state_.env.insert_or_assign(localKey(*induction), intValue(arith_.convert(value, kInt64, t), t));
  }

  SyncCount per_iteration = countSync(body);
  auto counterAt = [&](const z3::expr &at_entry, int per, const char *name) {
    if (per_iteration.exact)
      return arith_.add(at_entry, arith_.mul(k, arith_.constant(per, kInt64)));
    // Uniform across threads in the same iteration, otherwise unknown.
    z3::func_decl f = symbols_.freshSharedFunction(name, 1, kInt64);
    return arith_.add(at_entry, f(k));
  };
  state_.block = counterAt(entry.block, per_iteration.block, "blocksync");
  state_.warp = counterAt(entry.warp, per_iteration.warp, "warpsync");
  state_.grid = counterAt(entry.grid, per_iteration.grid, "gridsync");
  for (const auto &[mask, per] : per_iteration.masked_warp)
    state_.masked_warp.insert_or_assign(
        mask, counterAt(maskedCount(entry, mask), per, "maskedsync"));

  if (cond)
    state_.pc = state_.pc && asBool(eval(cond));
  walk(body);
  if (inc)
    walk(inc);
  iterations_.pop_back();

  // After the loop: the counters advanced by a uniform trip count; the
  // variables the loop assigned are unknown.
  state_ = entry;
  z3::expr trips = symbols_.freshShared("trips", kInt64);
  model_.shared_facts.push_back(trips >= 0);
  auto after = [&](const z3::expr &at_entry, int per, const char *name) {
    if (per_iteration.exact)
      return arith_.add(at_entry, arith_.mul(trips, arith_.constant(per, kInt64)));
    return arith_.add(at_entry, symbols_.freshShared(name, kInt64));
  };
  state_.block = after(entry.block, per_iteration.block, "blocksync");
  state_.warp = after(entry.warp, per_iteration.warp, "warpsync");
  state_.grid = after(entry.grid, per_iteration.grid, "gridsync");
  for (const auto &[mask, per] : per_iteration.masked_warp)
    state_.masked_warp.insert_or_assign(
        mask, after(maskedCount(entry, mask), per, "maskedsync"));
  if (per_iteration.exact)
    model_.thread_facts.push_back(k < trips || !entry.pc);
  z3::expr exit_k = symbols_.freshLocal("kexit", kInt64);
  if (induction)
    assigned.insert(induction);
  havoc(assigned, loop, exit_k);
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

void Builder::havoc(const std::set<const clang::VarDecl *> &vars,
                    const clang::Stmt &loop, const z3::expr &iteration) {
  for (const clang::VarDecl *var : vars) {
    std::string key = localKey(*var);
    auto it = state_.env.find(key);
    if (it != state_.env.end() && it->second.kind == Value::Kind::Pointer) {
      // A pointer advanced in a loop keeps its object; its offset is unknown.
      it->second.expr = symbols_.freshLocal("ptroff", kInt64);
      continue;
    }
    IntType t = intTypeOf(var->getType());
    bool uniform = it != state_.env.end() &&
                   !symbols_.isThreadDependent(it->second.expr);
    z3::expr value = [&] {
      if (uniform) {
        // Same for all threads in the same iteration of the loop.
        z3::func_decl f = symbols_.freshSharedFunction(var->getNameAsString(), 1, t);
        return f(iteration);
      }
      return symbols_.freshLocal(var->getNameAsString(), t);
    }();
    v1::Imprecision why;
    why.set_kind(v1::IMPRECISION_KIND_LOOP_OVERAPPROXIMATED);
    why.set_detail("value of '" + var->getNameAsString() +
                   "' in a loop is over-approximated");
    *why.mutable_location() = locationOf(loop);
    model_.imprecisions[value.decl().name().str()] = why;
    if (it != state_.env.end() && it->second.kind == Value::Kind::Int &&
        !var->getType()->isBooleanType())
      if (auto bound = monotoneBound(loop, *var, asInt(it->second, t), value, t))
        model_.thread_facts.push_back(*bound);
    state_.env.insert_or_assign(key, var->getType()->isBooleanType()
                          ? boolValue(arith_.toBool(value))
                          : intValue(value, t));
  }
}

// --- expressions ------------------------------------------------------------

Value Builder::eval(const clang::Expr *expr) {
  expr = expr->IgnoreParens();
  if (auto coordinate = builtinCoordinate(expr))
    return *coordinate;
  clang::Expr::EvalResult constant;
  if (!expr->isValueDependent() && expr->getType()->isIntegralOrEnumerationType() &&
      !expr->HasSideEffects(ast_) &&
      expr->EvaluateAsInt(constant, ast_)) {
    IntType t = intTypeOf(expr->getType());
    return intValue(arith_.constant(constant.Val.getInt().getExtValue(), t), t);
  }
  if (auto *literal = dyn_cast<clang::CXXBoolLiteralExpr>(expr))
    return boolValue(ctx().bool_val(literal->getValue()));
  if (auto *cast = dyn_cast<clang::CastExpr>(expr))
    return evalCast(*cast);
  if (auto *unary = dyn_cast<clang::UnaryOperator>(expr))
    return evalUnary(*unary);
  if (auto *binary = dyn_cast<clang::BinaryOperator>(expr))
    return evalBinary(*binary);
  if (auto *conditional = dyn_cast<clang::AbstractConditionalOperator>(expr))
    return evalConditional(*conditional);
  if (auto *call = dyn_cast<clang::CallExpr>(expr))
    return evalCall(*call);
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(expr))
    return evalDeclRef(*ref);
  if (auto *cleanups = dyn_cast<clang::ExprWithCleanups>(expr))
    return eval(cleanups->getSubExpr());
  if (auto *temporary = dyn_cast<clang::MaterializeTemporaryExpr>(expr))
    return eval(temporary->getSubExpr());
  if (auto *c = dyn_cast<clang::ConstantExpr>(expr))
    return eval(c->getSubExpr());
  if (expr->isGLValue() && (isa<clang::ArraySubscriptExpr, clang::MemberExpr>(expr)))
    return load(expr);
  // Anything else: its subexpressions may still access memory.
  for (const clang::Stmt *child : expr->children())
    if (auto *sub = dyn_cast_or_null<clang::Expr>(child))
      eval(sub);
  return freshValue(expr->getType(), v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                    "expression not modeled", expr);
}

std::optional<Value> Builder::builtinCoordinate(const clang::Expr *expr) {
  const clang::MSPropertyRefExpr *property = nullptr;
  if (auto *pseudo = dyn_cast<clang::PseudoObjectExpr>(expr))
    property = dyn_cast<clang::MSPropertyRefExpr>(
        pseudo->getSyntacticForm()->IgnoreParens());
  else
    property = dyn_cast<clang::MSPropertyRefExpr>(expr);
  if (!property)
    return std::nullopt;
  const clang::Expr *base_expr = property->getBaseExpr()->IgnoreParenImpCasts();
  if (auto *opaque = dyn_cast<clang::OpaqueValueExpr>(base_expr))
    base_expr = opaque->getSourceExpr()->IgnoreParenImpCasts();
  auto *base = dyn_cast_or_null<clang::DeclRefExpr>(base_expr);
  if (!base)
    return std::nullopt;
  std::string name = base->getDecl()->getName().str();
  std::string field = property->getPropertyDecl()->getName().str();
  int axis = field == "x" ? 0 : field == "y" ? 1 : field == "z" ? 2 : -1;
  if (axis < 0)
    return std::nullopt;
  if (name == "threadIdx" || name == "blockDim")
    model_.reads_thread_axis[axis] = true;
  if (name == "blockIdx" || name == "gridDim")
    model_.reads_block_axis[axis] = true;
  if (name == "threadIdx")
    return intValue(symbols_.threadIdx(axis), kUInt32);
  if (name == "blockIdx")
    return intValue(symbols_.blockIdx(axis), kUInt32);
  if (name == "blockDim")
    return intValue(symbols_.blockDim(axis), kUInt32);
  if (name == "gridDim")
    return intValue(symbols_.gridDim(axis), kUInt32);
  return std::nullopt;
}

Value Builder::evalCast(const clang::CastExpr &cast) {
  const clang::Expr *sub = cast.getSubExpr();
  clang::QualType to = cast.getType();
  switch (cast.getCastKind()) {
  case clang::CK_LValueToRValue:
    return load(sub);
  case clang::CK_ArrayToPointerDecay:
    return pointerFrom(place(sub), sub);
  case clang::CK_IntegralCast:
  case clang::CK_IntegralToPointer: {
    Value v = eval(sub);
    if (v.kind == Value::Kind::Pointer)
      return v;
    IntType t = intTypeOf(to);
    return intValue(arith_.convert(asInt(v, v.type), v.type, t), t);
  }
  case clang::CK_IntegralToBoolean:
  case clang::CK_PointerToBoolean:
    return boolValue(asBool(eval(sub)));
  case clang::CK_FloatingToIntegral:
  case clang::CK_FloatingToBoolean:
  case clang::CK_IntegralToFloating:
  case clang::CK_FloatingCast:
    eval(sub);
    return freshValue(to, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                      "floating-point value", &cast);
  case clang::CK_PointerToIntegral: {
    Value v = eval(sub);
    return freshValue(to, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                      "pointer converted to integer", &cast);
  }
  default: {
    Value v = eval(sub);
    if (v.kind == Value::Kind::Int && to->isIntegralOrEnumerationType() &&
        !to->isBooleanType()) {
      IntType t = intTypeOf(to);
      return intValue(arith_.convert(v.expr, v.type, t), t);
    }
    return v;
  }
  }
}

Value Builder::evalUnary(const clang::UnaryOperator &op) {
  const clang::Expr *sub = op.getSubExpr();
  IntType t = intTypeOf(op.getType());
  switch (op.getOpcode()) {
  case clang::UO_AddrOf:
    return pointerFrom(place(sub), sub);
  case clang::UO_Deref:
    return load(&op);
  case clang::UO_Minus:
    return intValue(arith_.sub(arith_.constant(0, t), asInt(eval(sub), t)), t);
  case clang::UO_Plus:
    return eval(sub);
  case clang::UO_LNot:
    return boolValue(!asBool(eval(sub)));
  case clang::UO_Not: {
    Value v = eval(sub);
    auto one_less = arith_.bitXor(asInt(v, t), arith_.constant(-1, t));
    if (one_less)
      return intValue(*one_less, t);
    // ~x == -x - 1 on two's complement integers.
    return intValue(arith_.sub(arith_.sub(arith_.constant(0, t), asInt(v, t)),
                               arith_.constant(1, t)),
                    t);
  }
  case clang::UO_PreInc:
  case clang::UO_PostInc:
  case clang::UO_PreDec:
  case clang::UO_PostDec: {
    Place where = place(sub);
    Value old = valueForUpdate(where, sub);
    Value one = intValue(arith_.constant(1, t), t);
    Value updated = evalArithmetic(op.isIncrementOp() ? clang::BO_Add : clang::BO_Sub,
                                   old, one, sub->getType(), &op);
    assignTo(where, sub, updated);
    return op.isPrefix() ? updated : old;
  }
  default:
    eval(sub);
    return freshValue(op.getType(), v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                      "operator not modeled", &op);
  }
}

Value Builder::evalArithmetic(clang::BinaryOperatorKind op, const Value &a,
                              const Value &b, clang::QualType type,
                              const clang::Expr *at) {
  // Pointer arithmetic: the offset moves by whole elements.
  if (a.kind == Value::Kind::Pointer || b.kind == Value::Kind::Pointer) {
    if (a.kind == Value::Kind::Pointer && b.kind == Value::Kind::Pointer) {
      return freshValue(type, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                        "pointer difference", at);
    }
    const Value &pointer = a.kind == Value::Kind::Pointer ? a : b;
    const Value &index = a.kind == Value::Kind::Pointer ? b : a;
    clang::QualType pointee = type->getPointeeType();
    int64_t size = pointee.isNull() || pointee->isIncompleteType() ||
                           pointee->isVoidType()
                       ? 1
                       : ast_.getTypeSizeInChars(pointee).getQuantity();
    z3::expr delta = arith_.mul(asInt(index, kInt64), arith_.constant(size, kInt64));
    Value out = pointer;
    out.expr = op == clang::BO_Sub ? arith_.sub(pointer.expr, delta)
                                   : arith_.add(pointer.expr, delta);
    return out;
  }
  bool is_signed = type->isSignedIntegerOrEnumerationType();
  IntType t = intTypeOf(type);
  z3::expr x = asInt(a, t), y = asInt(b, t);
  std::optional<z3::expr> result;
  switch (op) {
  case clang::BO_Add: result = arith_.add(x, y); break;
  case clang::BO_Sub: result = arith_.sub(x, y); break;
  case clang::BO_Mul: result = arith_.mul(x, y); break;
  case clang::BO_Div: result = arith_.div(x, y, is_signed); break;
  case clang::BO_Rem: result = arith_.rem(x, y, is_signed); break;
  case clang::BO_Shl: result = arith_.shiftLeft(x, y); break;
  case clang::BO_Shr: result = arith_.shiftRight(x, y, is_signed); break;
  case clang::BO_And: result = arith_.bitAnd(x, y); break;
  case clang::BO_Or: result = arith_.bitOr(x, y); break;
  case clang::BO_Xor: result = arith_.bitXor(x, y); break;
  default: break;
  }
  if (!result)
    return freshValue(type, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                      "bitwise operation on mathematical integers", at);
  return intValue(*result, t);
}

Value Builder::evalBinary(const clang::BinaryOperator &op) {
  clang::BinaryOperatorKind kind = op.getOpcode();
  if (kind == clang::BO_Assign)
    return assign(op.getLHS(), eval(op.getRHS()));
  if (op.isCompoundAssignmentOp()) {
    Value rhs = eval(op.getRHS());
    Place where = place(op.getLHS());
    Value old = valueForUpdate(where, op.getLHS());
    auto *compound = dyn_cast<clang::CompoundAssignOperator>(&op);
    clang::QualType computation =
        compound ? compound->getComputationResultType() : op.getType();
    Value updated = evalArithmetic(clang::BinaryOperator::getOpForCompoundAssignment(kind),
                                   old, rhs, computation, &op);
    return assignTo(where, op.getLHS(), updated);
  }
  if (kind == clang::BO_Comma) {
    eval(op.getLHS());
    return eval(op.getRHS());
  }
  if (kind == clang::BO_LAnd || kind == clang::BO_LOr) {
    z3::expr lhs = asBool(eval(op.getLHS()));
    z3::expr saved = state_.pc;
    // The right operand runs only when the left one does not decide.
    state_.pc = saved && (kind == clang::BO_LAnd ? lhs : !lhs);
    z3::expr rhs = asBool(eval(op.getRHS()));
    state_.pc = saved;
    return boolValue(kind == clang::BO_LAnd ? (lhs && rhs) : (lhs || rhs));
  }
  Value a = eval(op.getLHS());
  Value b = eval(op.getRHS());
  if (op.isComparisonOp()) {
    clang::QualType operand = op.getLHS()->getType();
    if (a.kind == Value::Kind::Pointer || b.kind == Value::Kind::Pointer) {
      if (a.object != b.object)
        return freshValue(op.getType(), v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                          "comparison of pointers", &op);
      operand = ast_.LongTy;
    }
    IntType t = a.kind == Value::Kind::Bool && b.kind == Value::Kind::Bool
                    ? kInt32
                    : intTypeOf(operand->isIntegralOrEnumerationType() ||
                                        operand->isPointerType()
                                    ? operand
                                    : ast_.LongTy);
    bool is_signed = t.is_signed;
    z3::expr x = asInt(a, t), y = asInt(b, t);
    switch (kind) {
    case clang::BO_LT: return boolValue(arith_.less(x, y, is_signed));
    case clang::BO_GT: return boolValue(arith_.less(y, x, is_signed));
    case clang::BO_LE: return boolValue(arith_.lessEq(x, y, is_signed));
    case clang::BO_GE: return boolValue(arith_.lessEq(y, x, is_signed));
    case clang::BO_EQ: return boolValue(x == y);
    case clang::BO_NE: return boolValue(x != y);
    default: break;
    }
  }
  return evalArithmetic(kind, a, b, op.getType(), &op);
}

Value Builder::evalConditional(const clang::AbstractConditionalOperator &op) {
  z3::expr condition = asBool(eval(op.getCond()));
  z3::expr saved = state_.pc;
  state_.pc = saved && condition;
  Value yes = eval(op.getTrueExpr());
  state_.pc = saved && !condition;
  Value no = eval(op.getFalseExpr());
  state_.pc = saved;
  if (yes.kind == Value::Kind::Pointer || no.kind == Value::Kind::Pointer) {
    Value out = yes;
    if (yes.object != no.object)
      out.object = unknownObject();
    out.expr = z3::ite(condition, yes.expr, no.expr);
    return out;
  }
  if (yes.kind == Value::Kind::Bool && no.kind == Value::Kind::Bool)
    return boolValue(z3::ite(condition, yes.expr, no.expr));
  IntType t = intTypeOf(op.getType());
  return intValue(z3::ite(condition, asInt(yes, t), asInt(no, t)), t);
}

Value Builder::evalDeclRef(const clang::DeclRefExpr &ref) {
  const clang::ValueDecl *decl = ref.getDecl();
  if (auto *enumerator = dyn_cast<clang::EnumConstantDecl>(decl)) {
    IntType t = intTypeOf(ref.getType());
    return intValue(arith_.constant(enumerator->getInitVal().getExtValue(), t), t);
  }
  auto it = state_.env.find(localKey(*decl));
  if (it != state_.env.end())
    return it->second;
  if (ref.getType()->isArrayType() || ref.getType()->isFunctionType())
    return pointerFrom(place(&ref), &ref);
  return freshValue(ref.getType(), v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                    "value of '" + decl->getNameAsString() + "' not followed", &ref);
}

Value Builder::load(const clang::Expr *lvalue_expr) {
  Place where = place(lvalue_expr);
  if (where.kind == Place::Kind::Memory) {
    recordAccess(where, lvalue_expr, v1::ACCESS_KIND_READ,
                 v1::ATOMIC_OP_UNSPECIFIED, v1::MEMORY_SCOPE_UNSPECIFIED);
    if (shared_scalars_.count(where.object))
      if (std::optional<Value> broadcast = broadcastValue(*where.object))
        return *broadcast;
    return freshValue(lvalue_expr->getType(), v1::IMPRECISION_KIND_LOADED_VALUE,
                      "value loaded from " + where.object->name, lvalue_expr);
  }
  if (where.kind == Place::Kind::Local) {
    auto it = state_.env.find(where.local_key);
    if (it != state_.env.end())
      return it->second;
  }
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(lvalue_expr->IgnoreParens()))
    return evalDeclRef(*ref);
  return freshValue(lvalue_expr->getType(), v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                    "value not followed", lvalue_expr);
}

std::optional<Value> Builder::broadcastValue(const MemoryObject &object) {
  // One write, not in a loop, every write of the scalar a plain store, and
  // a block barrier between it and this read. A write after this read
  // without a barrier would race on the scalar itself, and is reported.
  auto writes = scalar_writes_.find(&object);
  if (writes == scalar_writes_.end() || writes->second.size() != 1 ||
      scalar_write_sites_[&object] != 1 || !iterations_.empty())
    return std::nullopt;
  const SharedScalarWrite &write = writes->second.front();
  auto barriers_between =
      Arith::numeral(arith_.sub(state_.block, write.block_barriers).simplify(), true);
  if (write.in_loop || write.value.kind == Value::Kind::Pointer || !barriers_between ||
      *barriers_between <= 0)
    return std::nullopt;
  // The writer: the thread whose threadIdx the write's condition fixes
  // (`tid == 0`); axes the condition leaves free do not matter to it.
  std::array<int64_t, 3> writer = {0, 0, 0};
  bool fixed = false;
  std::vector<z3::expr> conjuncts{write.pc.simplify()};
  while (!conjuncts.empty()) {
    z3::expr c = conjuncts.back();
    conjuncts.pop_back();
    if (c.is_and()) {
      for (unsigned i = 0; i < c.num_args(); ++i)
        conjuncts.push_back(c.arg(i));
      continue;
    }
    if (!c.is_app() || c.decl().decl_kind() != Z3_OP_EQ)
      continue;
    for (int axis = 0; axis < 3; ++axis)
      for (int side = 0; side < 2; ++side)
        if (z3::eq(c.arg(side), symbols_.threadIdx(axis)))
          if (auto v = Arith::numeral(c.arg(1 - side), false)) {
            writer[axis] = *v;
            fixed = true;
          }
  }
  // A condition that names no writer (`if (found) flag = 1`) may be met by
  // any thread, and which one wrote last is not known.
  if (!fixed)
    return std::nullopt;
  std::optional<z3::expr> executed = asWriter(write.pc, writer);
  std::optional<z3::expr> value = asWriter(write.value.expr, writer);
  if (!executed || !value)
    return std::nullopt;
  // Without a writer in this block the scalar holds what it held before.
  z3::expr unwritten = symbols_.freshLocal("unwritten", write.value.type);
  v1::Imprecision why;
  why.set_kind(v1::IMPRECISION_KIND_LOADED_VALUE);
  why.set_detail("value of " + object.name + " when no thread of the block wrote it");
  model_.imprecisions[unwritten.decl().name().str()] = why;
  Value out = write.value;
  z3::expr otherwise =
      write.value.kind == Value::Kind::Bool ? arith_.toBool(unwritten) : unwritten;
  out.expr = executed->simplify().is_true() ? *value : z3::ite(*executed, *value, otherwise);
  return out;
}

std::optional<z3::expr> Builder::asWriter(const z3::expr &e,
                                          const std::array<int64_t, 3> &writer) {
  z3::expr_vector from(ctx()), to(ctx());
  z3::expr_vector block(ctx());
  for (int axis = 0; axis < 3; ++axis) {
    from.push_back(symbols_.threadIdx(axis));
    to.push_back(arith_.constant(writer[axis], kUInt32));
    block.push_back(arith_.convert(symbols_.blockIdx(axis), kUInt32, kInt64));
  }
  std::vector<z3::expr> pending{e};
  std::set<unsigned> seen;
  while (!pending.empty()) {
    z3::expr t = pending.back();
    pending.pop_back();
    if (!seen.insert(t.id()).second || !t.is_app())
      continue;
    for (unsigned i = 0; i < t.num_args(); ++i)
      pending.push_back(t.arg(i));
    if (t.decl().decl_kind() != Z3_OP_UNINTERPRETED || !symbols_.isThreadDependent(t))
      continue;
    bool coordinate = false;
    for (int axis = 0; axis < 3; ++axis)
      coordinate |= z3::eq(t, symbols_.threadIdx(axis)) || z3::eq(t, symbols_.blockIdx(axis));
    if (coordinate)
      continue;
    // Loop functions and Bool symbols of the writer are not followed.
    if (t.num_args() > 0 || t.is_bool())
      return std::nullopt;
    IntType type{t.get_sort().is_bv() ? t.get_sort().bv_size() : 64u, true};
    z3::func_decl of_block = symbols_.freshSharedFunction(t.decl().name().str() + "@writer", 3, type);
    z3::expr replaced = of_block(block);
    auto why = model_.imprecisions.find(t.decl().name().str());
    if (why != model_.imprecisions.end())
      model_.imprecisions[of_block.name().str()] = why->second;
    std::vector<KernelModel::TicketAtomic> broadcast;
    for (const KernelModel::TicketAtomic &ticket : model_.tickets)
      if (z3::eq(ticket.result, t) && !symbols_.isThreadDependent(ticket.address))
        broadcast.push_back({replaced, ticket.address, ticket.object, true});
    model_.tickets.insert(model_.tickets.end(), broadcast.begin(), broadcast.end());
    from.push_back(t);
    to.push_back(replaced);
  }
  z3::expr copy = e;
  return copy.substitute(from, to);
}

Value Builder::assign(const clang::Expr *lhs, const Value &value) {
  return assignTo(place(lhs), lhs, value);
}

Value Builder::valueForUpdate(const Place &where, const clang::Expr *lhs) {
  if (where.kind == Place::Kind::Local) {
    auto it = state_.env.find(where.local_key);
    if (it != state_.env.end())
      return it->second;
  }
  v1::ImprecisionKind why = where.kind == Place::Kind::Memory
                                ? v1::IMPRECISION_KIND_LOADED_VALUE
                                : v1::IMPRECISION_KIND_UNMODELED_EXPRESSION;
  return freshValue(lhs->getType(), why, "value before the update", lhs);
}

Value Builder::assignTo(const Place &where, const clang::Expr *lhs,
                        const Value &value) {
  if (where.kind == Place::Kind::Memory) {
    recordAccess(where, lhs, v1::ACCESS_KIND_WRITE, v1::ATOMIC_OP_UNSPECIFIED,
                 v1::MEMORY_SCOPE_UNSPECIFIED);
    if (shared_scalars_.count(where.object))
      scalar_writes_[where.object].push_back(
          {value, state_.pc, state_.block, !iterations_.empty()});
  } else if (where.kind == Place::Kind::Local) {
    Value stored = value;
    clang::QualType type = lhs->getType();
    if (value.kind != Value::Kind::Pointer && !type->isBooleanType() &&
        type->isIntegralOrEnumerationType()) {
      IntType t = intTypeOf(type);
      stored = intValue(asInt(value, t), t);
    }
    state_.env.insert_or_assign(where.local_key, stored);
  }
  return value;
}

// Where an lvalue expression points: memory objects are followed through
// pointers, array indexing and struct fields; thread-private variables and
// their fields are locals.
Place Builder::place(const clang::Expr *expr) {
  expr = expr->IgnoreParenNoopCasts(ast_);
  Place out;
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(expr)) {
    const clang::ValueDecl *decl = ref->getDecl();
    if (auto *var = dyn_cast<clang::VarDecl>(decl)) {
      if (var->hasAttr<clang::CUDASharedAttr>()) {
        out.kind = Place::Kind::Memory;
        out.object = objectFor(*var, MemoryObject::Kind::SharedArray,
                               v1::MEMORY_SPACE_SHARED, -1);
        if (var->getType()->isIntegralOrEnumerationType())
          shared_scalars_.insert(out.object);
        out.offset = zero64();
        return out;
      }
      if (var->hasGlobalStorage() && (var->hasAttr<clang::CUDADeviceAttr>() ||
                                      var->hasAttr<clang::CUDAConstantAttr>())) {
        out.kind = Place::Kind::Memory;
        out.object = objectFor(*var, MemoryObject::Kind::DeviceGlobal,
                               var->hasAttr<clang::CUDAConstantAttr>()
                                   ? v1::MEMORY_SPACE_CONSTANT
                                   : v1::MEMORY_SPACE_GLOBAL,
                               -1);
        out.offset = zero64();
        return out;
      }
      if (var->getType()->isReferenceType()) {
        auto it = state_.env.find(localKey(*var));
        if (it != state_.env.end() && it->second.kind == Value::Kind::Pointer) {
          out.kind = Place::Kind::Memory;
          out.object = it->second.object;
          out.offset = it->second.expr;
          return out;
        }
      }
    }
    out.kind = Place::Kind::Local;
    out.local_key = localKey(*decl);
    return out;
  }
  if (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(expr)) {
    Value base = eval(subscript->getBase());
    Value index = eval(subscript->getIdx());
    if (base.kind != Value::Kind::Pointer) {
      out.kind = Place::Kind::Other; // a thread-private array
      return out;
    }
    int64_t size = ast_.getTypeSizeInChars(subscript->getType()).getQuantity();
    out.kind = Place::Kind::Memory;
    out.object = base.object;
    out.offset = arith_.add(base.expr, arith_.mul(asInt(index, kInt64),
                                                  arith_.constant(size, kInt64)));
    return out;
  }
  if (auto *unary = dyn_cast<clang::UnaryOperator>(expr)) {
    if (unary->getOpcode() == clang::UO_Deref) {
      Value pointer = eval(unary->getSubExpr());
      if (pointer.kind != Value::Kind::Pointer)
        return out;
      out.kind = Place::Kind::Memory;
      out.object = pointer.object;
      out.offset = pointer.expr;
      return out;
    }
  }
  if (auto *member = dyn_cast<clang::MemberExpr>(expr)) {
    auto *field = dyn_cast<clang::FieldDecl>(member->getMemberDecl());
    Place base;
    if (member->isArrow()) {
      Value pointer = eval(member->getBase());
      if (pointer.kind == Value::Kind::Pointer) {
        base.kind = Place::Kind::Memory;
        base.object = pointer.object;
        base.offset = pointer.expr;
      }
    } else {
      base = place(member->getBase());
    }
    if (!field || base.kind == Place::Kind::Other)
      return out;
    if (base.kind == Place::Kind::Local) {
      base.local_key += "." + field->getNameAsString();
      return base;
    }
    const clang::ASTRecordLayout &layout = ast_.getASTRecordLayout(field->getParent());
    int64_t bits = static_cast<int64_t>(layout.getFieldOffset(field->getFieldIndex()));
    base.offset = arith_.add(*base.offset, arith_.constant(bits / 8, kInt64));
    return base;
  }
  if (auto *call = dyn_cast<clang::CallExpr>(expr)) {
    Value result = eval(call);
    if (result.kind == Value::Kind::Pointer) {
      // A function returning a reference into memory.
      out.kind = Place::Kind::Memory;
      out.object = result.object;
      out.offset = result.expr;
    }
    return out;
  }
  if (auto *cast = dyn_cast<clang::CastExpr>(expr))
    return place(cast->getSubExpr());
  eval(expr);
  return out;
}

Value Builder::pointerFrom(const Place &where, const clang::Expr *at) {
  if (where.kind == Place::Kind::Memory) {
    Value out{Value::Kind::Pointer, *where.offset, kInt64, where.object};
    return out;
  }
  if (where.kind == Place::Kind::Local) {
    auto it = state_.env.find(where.local_key);
    if (it != state_.env.end() && it->second.kind == Value::Kind::Pointer)
      return it->second;
  }
  // The address of thread-private storage: accesses through it cannot race.
  Value out{Value::Kind::Pointer, symbols_.freshLocal("local", kInt64), kInt64,
            nullptr};
  return out;
}

// Whether every execution of an atomic moves its counter on, so that no
// two see the same old value: increments and decrements by a nonzero
// constant, and atomicInc/atomicDec.
bool Builder::handsOutTickets(const clang::CallExpr &call, v1::AtomicOp op) const {
  if (op == v1::ATOMIC_OP_INC || op == v1::ATOMIC_OP_DEC)
    return true;
  if ((op != v1::ATOMIC_OP_ADD && op != v1::ATOMIC_OP_SUB) || call.getNumArgs() < 2 ||
      !call.getArg(1)->getType()->isIntegerType())
    return false;
  clang::Expr::EvalResult step;
  return !call.getArg(1)->isValueDependent() &&
         call.getArg(1)->EvaluateAsInt(step, ast_) && step.Val.getInt() != 0;
}

Value Builder::evalCall(const clang::CallExpr &call) {
  const clang::FunctionDecl *callee = call.getDirectCallee();
  const clang::Expr *object = nullptr;
  bool value_used = discarded_ != &call;
  if (auto *member = dyn_cast<clang::CXXMemberCallExpr>(&call)) {
    object = member->getImplicitObjectArgument();
    if (auto result = evalScopedAtomic(*member, value_used))
      return *result;
  }
  if (callee) {
    if (auto sync = classifySyncFunction(*callee, object)) {
      recordSync(call, *sync);
      for (const clang::Expr *arg : call.arguments())
        eval(arg);
      if (object)
        eval(object);
      return freshValue(call.getType(), v1::IMPRECISION_KIND_LOADED_VALUE,
                        "result of " + callee->getNameAsString(), &call);
    }
    if (auto atomic = classifyAtomicFunction(*callee)) {
      Value pointer = eval(call.getArg(0));
      for (unsigned i = 1; i < call.getNumArgs(); ++i)
        eval(call.getArg(i));
      if (pointer.kind == Value::Kind::Pointer && pointer.object) {
        Place where{Place::Kind::Memory, pointer.object, pointer.expr, {}};
        recordAccess(where, &call, v1::ACCESS_KIND_ATOMIC, atomic->op,
                     atomic->scope);
        if (!model_.accesses.empty() && model_.accesses.back().site.kind() ==
                                            v1::ACCESS_KIND_ATOMIC)
          model_.accesses.back().value_used = value_used;
      }
      Value result = freshValue(call.getType(), v1::IMPRECISION_KIND_LOADED_VALUE,
                                "result of " + callee->getNameAsString(), &call);
      if (pointer.kind == Value::Kind::Pointer && pointer.object &&
          result.kind == Value::Kind::Int && handsOutTickets(call, atomic->op))
        model_.tickets.push_back({result.expr, pointer.expr, pointer.object});
      return result;
    }
    if (callee->hasBody() && !callee->hasAttr<clang::CUDAGlobalAttr>() &&
        frames_.size() < options_.max_inline_depth)
      return inlineCall(*callee, call, object);
  }
  if (object)
    eval(object);
  for (const clang::Expr *arg : call.arguments())
    eval(arg);
  std::string name = callee ? callee->getNameAsString() : "an indirect call";
  clang::QualType type = call.getType();
  if (type->isReferenceType())
    return pointerFrom(Place{}, &call);
  return freshValue(type, v1::IMPRECISION_KIND_OPAQUE_CALL,
                    "result of " + name + ", whose body is not visible", &call);
}

std::optional<Value> Builder::evalScopedAtomic(const clang::CXXMemberCallExpr &call,
                                               bool value_used) {
  auto atomic = classifyScopedAtomic(call, ast_);
  if (!atomic)
    return std::nullopt;
  const clang::Expr *object = call.getImplicitObjectArgument()->IgnoreParenBaseCasts();
  Value pointer = pointerFrom(place(object), object);
  for (const clang::Expr *arg : call.arguments())
    eval(arg);
  if (pointer.kind == Value::Kind::Pointer && pointer.object) {
    Place where{Place::Kind::Memory, pointer.object, pointer.expr, {}};
    // A release orders what came before the atomic, an acquire what comes
    // after it: as a fence of the atomic's scope on that side.
    if (atomic->releases)
      recordFence(call, atomic->scope);
    recordAccess(where, &call, v1::ACCESS_KIND_ATOMIC, atomic->op, atomic->scope);
    if (!model_.accesses.empty())
      model_.accesses.back().value_used = value_used;
    if (atomic->acquires)
      recordFence(call, atomic->scope);
  }
  return freshValue(call.getType(), v1::IMPRECISION_KIND_LOADED_VALUE,
                    "result of " + call.getMethodDecl()->getNameAsString(), &call);
}

Value Builder::inlineCall(const clang::FunctionDecl &callee,
                          const clang::CallExpr &call,
                          const clang::Expr *object) {
  const clang::FunctionDecl *definition = nullptr;
  callee.hasBody(definition);
  std::vector<Value> args;
  for (unsigned i = 0; i < call.getNumArgs(); ++i) {
    const clang::Expr *arg = call.getArg(i);
    bool by_reference = i < definition->getNumParams() &&
                        definition->getParamDecl(i)->getType()->isReferenceType();
    args.push_back(by_reference ? pointerFrom(place(arg), arg) : eval(arg));
  }
  if (object)
    eval(object);
  Frame frame{definition, {}, {}};
  frame.call.set_callee(definition->getQualifiedNameAsString());
  *frame.call.mutable_call_site() = locationOf(call);
  for (unsigned i = 0; i < definition->getNumParams() && i < args.size(); ++i)
    state_.env.insert_or_assign(localKey(*definition->getParamDecl(i)), args[i]);
  z3::expr entry_pc = state_.pc;
  frames_.push_back(std::move(frame));
  walk(definition->getBody());
  Frame done = std::move(frames_.back());
  frames_.pop_back();
  // Returns end their paths; the caller continues on all of them.
  state_.pc = entry_pc;
  clang::QualType type = call.getType();
  if (done.returns.empty())
    return freshValue(type, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                      "no value returned", &call);
  Value result = done.returns.back().second;
  for (auto it = done.returns.rbegin() + 1; it != done.returns.rend(); ++it) {
    const Value &v = it->second;
    if (result.kind == Value::Kind::Pointer || v.kind == Value::Kind::Pointer) {
      if (v.object != result.object)
        result.object = unknownObject();
      result.expr = z3::ite(it->first, v.expr, result.expr);
    } else if (result.kind == Value::Kind::Bool && v.kind == Value::Kind::Bool) {
      result.expr = z3::ite(it->first, v.expr, result.expr);
    } else {
      IntType t = result.kind == Value::Kind::Int ? result.type : v.type;
      result = intValue(z3::ite(it->first, asInt(v, t), asInt(result, t)), t);
    }
  }
  return result;
}

// --- model output -----------------------------------------------------------

std::string Builder::currentFunctionName() const {
  const clang::FunctionDecl *f = frames_.empty() ? &kernel_ : frames_.back().function;
  return f->getQualifiedNameAsString();
}

v1::SourceLocation Builder::locationOf(const clang::Stmt &stmt) const {
  return toLocation(stmt.getSourceRange(), sources_, currentFunctionName());
}

std::string Builder::localKey(const clang::ValueDecl &decl) {
  // Numbered in the order the walk meets them, not by address: the
  // environment is iterated when paths merge, and that order decides the
  // terms and the numbering of fresh symbols, hence the solver's work.
  auto [it, inserted] = local_ids_.emplace(decl.getCanonicalDecl(), local_ids_.size());
  return "local" + std::to_string(it->second);
}

void Builder::recordAccess(const Place &where, const clang::Expr *expr,
                           v1::AccessKind kind, v1::AtomicOp op,
                           v1::MemoryScope scope) {
  if (!where.object || where.object->space == v1::MEMORY_SPACE_CONSTANT)
    return;
  if (kind != v1::ACCESS_KIND_READ && shared_scalars_.count(where.object))
    ++scalar_write_sites_[where.object];
  MemoryAccess access{{}, where.object, *where.offset, state_.pc,
                      {state_.block, state_.warp, state_.grid, state_.masked_warp},
                      iterations_, order_++};
  access.strong = !isa<clang::CallExpr>(expr) && expr->getType().isVolatileQualified();
  v1::AccessSite &site = access.site;
  *site.mutable_location() = locationOf(*expr);
  site.set_kind(kind);
  site.set_atomic_op(op);
  site.set_scope(scope);
  site.set_space(where.object->space);
  site.set_expression(sourceText(expr->getSourceRange(), sources_));
  site.set_base_object(where.object->name);
  site.set_kernel(kernel_.getNameAsString());
  clang::QualType type = expr->getType();
  if (auto *member = dyn_cast<clang::CXXMemberCallExpr>(expr))
    type = scopedAtomicValueType(*member);
  else if (auto *call = dyn_cast<clang::CallExpr>(expr))
    type = call->getArg(0)->getType()->getPointeeType();
  site.set_size_bytes(type.isNull() || type->isIncompleteType()
                          ? 1
                          : ast_.getTypeSizeInChars(type).getQuantity());
  for (const Frame &frame : frames_)
    *site.add_call_stack() = frame.call;
  *site.mutable_excerpt() = excerptAround(site.location(), sources_,
                                          expr->getBeginLoc(),
                                          options_.excerpt_context);
  // Stable id: what is accessed and how, and which occurrence of that text
  // in the function it is; never the line number.
  std::string key = currentFunctionName() + "|" + normalizedText(*expr, ast_) +
                    "|" + std::to_string(kind) + "|" +
                    std::to_string(site.call_stack_size());
  unsigned ordinal = site_ordinals_[key]++;
  site.set_site_id(key + "#" + std::to_string(ordinal)); // hashed later
  model_.accesses.push_back(std::move(access));
}

void Builder::recordFence(const clang::Expr &at, v1::MemoryScope scope) {
  v1::SyncSite site;
  *site.mutable_location() = locationOf(at);
  site.set_kind(v1::SYNC_KIND_FENCE);
  site.set_scope(scope);
  site.set_kernel(kernel_.getNameAsString());
  site.set_expression(sourceText(at.getSourceRange(), sources_));
  model_.fences.push_back({site, state_.pc, order_++});
}

void Builder::recordSync(const clang::Expr &call, const SyncFunction &sync) {
  if (sync.kind == v1::SYNC_KIND_FENCE)
    recordFence(call, fenceScope(call, sync.scope, ast_));
  v1::SyncSite site;
  *site.mutable_location() = locationOf(call);
  site.set_kind(sync.kind);
  site.set_scope(sync.scope);
  site.set_kernel(kernel_.getNameAsString());
  site.set_expression(sourceText(call.getSourceRange(), sources_));
  site.set_site_id(currentFunctionName() + "|" + site.expression() + "|" +
                   std::to_string(model_.sync_sites.size()));
  model_.sync_sites.push_back(site);
  z3::expr one = arith_.constant(1, kInt64);
  if (sync.orders_block) {
    model_.barriers.push_back({site, state_.pc, iterations_, Barrier::Scope::Block, {}});
    state_.block = arith_.add(state_.block, one);
    state_.warp = arith_.add(state_.warp, one);
  } else if (sync.orders_warp) {
    std::optional<LaneGroup> mask = warpBarrierLanes(call, sync);
    model_.barriers.push_back({site, state_.pc, iterations_, Barrier::Scope::Warp, mask});
    if (mask && !mask->wholeWarp())
      state_.masked_warp.insert_or_assign(*mask,
                                          arith_.add(maskedCount(state_, *mask), one));
    else
      state_.warp = arith_.add(state_.warp, one);
  }
  if (sync.orders_grid) {
    model_.barriers.push_back({site, state_.pc, iterations_, Barrier::Scope::Grid, {}});
    state_.grid = arith_.add(state_.grid, one);
    state_.block = arith_.add(state_.block, one);
    state_.warp = arith_.add(state_.warp, one);
  }
}

std::optional<LaneGroup> Builder::warpBarrierLanes(const clang::Expr &call,
                                                  const SyncFunction &sync) const {
  if (sync.kind == v1::SYNC_KIND_TILE_SYNC) {
    auto *member = dyn_cast<clang::CXXMemberCallExpr>(&call);
    auto size = member ? tileSize(member->getImplicitObjectArgument()) : std::nullopt;
    if (!size)
      return std::nullopt; // coalesced groups: the lanes are not known
    LaneGroup tile;
    tile.tile_size = *size;
    return tile;
  }
  if (sync.kind != v1::SYNC_KIND_SYNCWARP && sync.kind != v1::SYNC_KIND_WARP_COLLECTIVE)
    return std::nullopt;
  auto *c = dyn_cast<clang::CallExpr>(&call);
  if (!c || c->getNumArgs() == 0 || isa<clang::CXXDefaultArgExpr>(c->getArg(0)))
    return LaneGroup{};
  clang::Expr::EvalResult mask;
  if (c->getArg(0)->isValueDependent() || !c->getArg(0)->EvaluateAsInt(mask, ast_))
    return std::nullopt;
  LaneGroup lanes;
  lanes.mask = static_cast<uint32_t>(mask.Val.getInt().getZExtValue());
  return lanes;
}

const MemoryObject *Builder::objectFor(const clang::ValueDecl &decl,
                                       MemoryObject::Kind kind,
                                       v1::MemorySpace space,
                                       int parameter_index) {
  auto it = objects_.find(decl.getCanonicalDecl());
  if (it != objects_.end())
    return it->second;
  auto object = std::make_unique<MemoryObject>();
  object->kind = kind;
  object->name = decl.getNameAsString();
  object->space = space;
  object->parameter_index = parameter_index;
  const MemoryObject *raw = object.get();
  model_.objects.push_back(std::move(object));
  objects_[decl.getCanonicalDecl()] = raw;
  return raw;
}

const MemoryObject *Builder::unknownObject() {
  if (!unknown_) {
    auto object = std::make_unique<MemoryObject>();
    object->kind = MemoryObject::Kind::Unknown;
    object->name = "<unresolved pointer>";
    unknown_ = object.get();
    model_.objects.push_back(std::move(object));
  }
  return unknown_;
}

// Statically counts the synchronization in `stmt` when it is the same on
// every path through it.
SyncCount Builder::countSync(const clang::Stmt *stmt) const {
  SyncCount count;
  if (!stmt)
    return count;
  if (isa<clang::IfStmt, clang::ForStmt, clang::WhileStmt, clang::DoStmt,
          clang::SwitchStmt, clang::ConditionalOperator>(stmt)) {
    SyncCount inner;
    for (const clang::Stmt *child : stmt->children())
      inner.add(countSync(child));
    if (inner.any() || !inner.exact)
      count.exact = false;
    // The masks still name counters the loop may advance.
    for (const auto &[mask, n] : inner.masked_warp)
      count.masked_warp.emplace(mask, 0);
    return count;
  }
  if (auto *call = dyn_cast<clang::CallExpr>(stmt)) {
    const clang::Expr *object = nullptr;
    if (auto *member = dyn_cast<clang::CXXMemberCallExpr>(call))
      object = member->getImplicitObjectArgument();
    if (const clang::FunctionDecl *callee = call->getDirectCallee()) {
      if (auto sync = classifySyncFunction(*callee, object)) {
        std::optional<LaneGroup> mask = warpBarrierLanes(*call, *sync);
        bool partial = !sync->orders_block && !sync->orders_grid && mask &&
                       !mask->wholeWarp();
        count.block += sync->orders_block || sync->orders_grid;
        count.warp += !partial && (sync->orders_block || sync->orders_warp ||
                                   sync->orders_grid);
        count.grid += sync->orders_grid;
        if (partial)
          ++count.masked_warp[*mask];
      } else if (callee->hasBody() && !callee->hasAttr<clang::CUDAGlobalAttr>()) {
        const clang::FunctionDecl *definition = nullptr;
        callee->hasBody(definition);
        SyncCount inner = countSync(definition->getBody());
        if (inner.any() || !inner.exact)
          count.exact = false; // a callee's own control flow is not tracked
        for (const auto &[mask, n] : inner.masked_warp)
          count.masked_warp.emplace(mask, 0);
      }
    }
  }
  for (const clang::Stmt *child : stmt->children())
    count.add(countSync(child));
  return count;
}

std::set<const clang::VarDecl *> Builder::assignedIn(const clang::Stmt *stmt) const {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    std::set<const clang::VarDecl *> found;
    void note(const clang::Expr *e) {
      if (auto *ref = dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts()))
        if (auto *var = dyn_cast<clang::VarDecl>(ref->getDecl()))
          found.insert(var);
    }
    bool VisitBinaryOperator(clang::BinaryOperator *op) {
      if (op->isAssignmentOp())
        note(op->getLHS());
      return true;
    }
    bool VisitUnaryOperator(clang::UnaryOperator *op) {
      if (op->isIncrementDecrementOp())
        note(op->getSubExpr());
      return true;
    }
    bool VisitDeclStmt(clang::DeclStmt *decl) {
      for (const clang::Decl *d : decl->decls())
        if (auto *var = dyn_cast<clang::VarDecl>(d))
          found.insert(var);
      return true;
    }
  } finder;
  if (stmt)
    finder.TraverseStmt(const_cast<clang::Stmt *>(stmt));
  return finder.found;
}

KernelModel Builder::build() {
  model_.kernel_name = kernel_.getNameAsString();
  model_.kernel_location =
      toLocation(kernel_.getSourceRange(), sources_, kernel_.getQualifiedNameAsString());
  for (unsigned i = 0; i < kernel_.getNumParams(); ++i) {
    const clang::ParmVarDecl *param = kernel_.getParamDecl(i);
    std::string name = param->getNameAsString();
    if (name.empty())
      name = "arg" + std::to_string(i);
    clang::QualType type = param->getType();
    if (type->isPointerType()) {
      const MemoryObject *object = objectFor(*param, MemoryObject::Kind::PointerParameter,
                                             v1::MEMORY_SPACE_GLOBAL, static_cast<int>(i));
      state_.env.insert_or_assign(localKey(*param), Value{Value::Kind::Pointer, zero64(), kInt64, object});
      continue;
    }
    bindParameter(localKey(*param), name, type, 0);
  }
  walk(kernel_.getBody());
  return std::move(model_);
}

void Builder::bindParameter(const std::string &key, const std::string &name,
                            clang::QualType type, unsigned depth) {
  type = type.getCanonicalType();
  if (type->isPointerType() && depth > 0) {
    // A pointer inside a struct argument: the host may have set it to any
    // buffer, so it may alias every other global pointer.
    auto object = std::make_unique<MemoryObject>();
    object->kind = MemoryObject::Kind::Unknown;
    object->name = name;
    state_.env.insert_or_assign(key, Value{Value::Kind::Pointer, zero64(), kInt64, object.get()});
    model_.objects.push_back(std::move(object));
    return;
  }
  if (const clang::RecordDecl *record = type->getAsRecordDecl()) {
    // Fields of a struct passed by value are the same for every thread,
    // like parameters (`img.width`); nesting beyond a few levels is left
    // to fresh values.
    if (depth >= 3 || !record->getDefinition() || record->isUnion())
      return;
    for (const clang::FieldDecl *field : record->getDefinition()->fields())
      if (!field->isBitField() && !field->getName().empty())
        bindParameter(key + "." + field->getNameAsString(),
                      name + "." + field->getNameAsString(), field->getType(), depth + 1);
    return;
  }
  if (!type->isIntegralOrEnumerationType())
    return; // floats and arrays become fresh when read
  IntType t = intTypeOf(type);
  z3::expr symbol = symbols_.shared(parameterSymbolName(name), t);
  model_.parameters.emplace_back(name, symbol);
  state_.env.insert_or_assign(key, type->isBooleanType() ? boolValue(arith_.toBool(symbol))
                                                         : intValue(symbol, t));
}

} // namespace

KernelModel buildKernelModel(const clang::FunctionDecl &kernel,
                             clang::ASTContext &ast, SymbolSpace &symbols,
                             const ModelOptions &options) {
  return Builder(kernel, ast, symbols, options).build();
}

} // namespace gpurace::analyzer
