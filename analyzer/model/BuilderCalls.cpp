//===- BuilderCalls.cpp - calls, atomics and inlining -----------------------===//
//
// Device functions are inlined with their call stack kept; atomics,
// synchronization calls and loads and stores with cache hints are
// recorded. A call the walk does not enter is opaque: its result is
// unknown and the locals it can reach may change.
//
//===----------------------------------------------------------------------===//
#include "analyzer/model/ModelBuilder.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Basic/Builtins.h>
#include <clang/Basic/SourceManager.h>

#include <set>
#include <string>

namespace gpurace::analyzer::builder {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;

namespace {

// Whether `param` lets a callee write what its argument designates.
bool mayWriteThrough(clang::QualType param) {
  clang::QualType pointee = param->isReferenceType() || param->isPointerType()
                                ? param->getPointeeType()
                                : clang::QualType();
  return pointee.isNull() || !pointee.isConstQualified();
}

const clang::CXXMethodDecl *trivialAssignment(const clang::FunctionDecl &callee) {
  auto *method = dyn_cast<clang::CXXMethodDecl>(&callee);
  return method && method->isTrivial() &&
                 (method->isCopyAssignmentOperator() || method->isMoveAssignmentOperator())
             ? method
             : nullptr;
}

// Whether a local's declaration belongs to `function` (its parameters and
// the variables of its body), whose storage a recursive call reuses.
bool declaredIn(const clang::ValueDecl *decl, const clang::FunctionDecl &function) {
  for (const clang::DeclContext *c = decl ? decl->getDeclContext() : nullptr; c;
       c = c->getParent())
    if (c == &function)
      return true;
  return false;
}

// The access a load or store with a cache hint makes: a read for
// `__ldg(p)` and the `__ld*` loads, a write for the `__st*` stores.
std::optional<v1::AccessKind> cacheHintedAccess(const clang::CallExpr &call,
                                                const clang::FunctionDecl &callee) {
  static const std::set<std::string> kLoads = {"__ldg",  "__ldcg", "__ldca",
                                               "__ldcs", "__ldlu", "__ldcv"};
  static const std::set<std::string> kStores = {"__stwb", "__stcg", "__stcs", "__stwt"};
  std::string name = callee.getNameAsString();
  if (call.getNumArgs() == 0 || !call.getArg(0)->getType()->isPointerType())
    return std::nullopt;
  if (kLoads.count(name) && call.getNumArgs() == 1)
    return v1::ACCESS_KIND_READ;
  if (kStores.count(name) && call.getNumArgs() == 2)
    return v1::ACCESS_KIND_WRITE;
  return std::nullopt;
}

} // namespace

Value Builder::evalCacheHinted(const clang::CallExpr &call, v1::AccessKind kind) {
  Place where = placeOf(eval(call.getArg(0)));
  clang::QualType type = call.getArg(0)->getType()->getPointeeType();
  if (kind == v1::ACCESS_KIND_READ)
    return loadFrom(where, type, call);
  Value value = eval(call.getArg(1));
  if (where.kind == Place::Kind::Local)
    writeLocal(where, type, value);
  else
    assignTo(where, &call, value);
  return freshValue(call.getType(), v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                    "result of " + call.getDirectCallee()->getNameAsString(), &call);
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
  if (!callee) {
    if (isa<clang::CXXPseudoDestructorExpr>(call.getCallee()->IgnoreParens()))
      return freshValue(call.getType(), v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                        "pseudo-destructor call", &call);
    return indirectCall(call);
  }
  if (auto sync = classifySyncFunction(*callee, groupShape(callObject(call)))) {
    // What a collective takes (`__shfl_sync(mask, a[i], src)`,
    // `cg::reduce(tile, a[i], op)`) is read before the threads meet.
    for (const clang::Expr *arg : call.arguments())
      eval(arg);
    if (const clang::Expr *group = callObject(call))
      eval(group);
    recordSync(call, *sync);
    if (std::optional<Value> agreed = barrierResult(call, *callee, *sync))
      return *agreed;
    return freshValue(call.getType(), v1::IMPRECISION_KIND_LOADED_VALUE,
                      "result of " + callee->getNameAsString(), &call);
  }
  if (std::optional<Value> rank = cooperativeGroupQuery(call, *callee))
    return *rank;
  if (std::optional<v1::AccessKind> hinted = cacheHintedAccess(call, *callee))
    return evalCacheHinted(call, *hinted);
  if (auto atomic = classifyAtomicFunction(*callee); atomic && call.getNumArgs() > 0)
    return evalAtomic(call, ScopedAtomicCall{atomic->op, atomic->scope}, value_used);
  if (auto atomic = classifyNvAtomicBuiltin(call, ast_))
    return evalAtomic(call, *atomic, value_used);
  if (std::optional<v1::MemoryScope> fence = nvThreadFence(call, ast_)) {
    for (const clang::Expr *arg : call.arguments())
      eval(arg);
    recordFence(call, *fence);
    return freshValue(call.getType(), v1::IMPRECISION_KIND_OPAQUE_CALL,
                      "result of " + callee->getNameAsString(), &call);
  }
  unsigned builtin = callee->getBuiltinID();
  if ((builtin == clang::Builtin::BI__builtin_expect ||
       builtin == clang::Builtin::BI__builtin_assume_aligned) &&
      call.getNumArgs() > 0) {
    // The value of the first argument, with a hint for the compiler.
    Value first = eval(call.getArg(0));
    for (unsigned i = 1; i < call.getNumArgs(); ++i)
      eval(call.getArg(i));
    return first;
  }
  if (const clang::CXXMethodDecl *assignment = trivialAssignment(*callee)) {
    std::vector<const clang::Expr *> args = callArguments(call);
    const clang::Expr *lhs = object ? object : (call.getNumArgs() > 0 ? call.getArg(0) : nullptr);
    if (lhs && !args.empty() && !assignment->getParent()->isUnion())
      return assignAggregate(lhs, args.front());
  }
  if (auto *method = dyn_cast<clang::CXXMethodDecl>(callee); method && method->isVirtual()) {
    auto *member = dyn_cast<clang::MemberExpr>(call.getCallee()->IgnoreParens());
    bool qualified = member && member->hasQualifier();
    if (!qualified && !(object && method->getDevirtualizedMethod(object, false)))
      unsupported("virtual call to " + method->getQualifiedNameAsString(), call);
  }
  if (ast_.getSourceManager().isInSystemHeader(callee->getLocation()))
    if (std::optional<Value> exact = libraryArithmetic(call, *callee))
      return *exact;
  const clang::FunctionDecl *definition = nullptr;
  if (!callee->hasBody(definition) || callee->hasAttr<clang::CUDAGlobalAttr>())
    return opaqueCall(call, callee, object,
                      "result of " + callee->getNameAsString() + ", whose body is not visible");
  // The CUDA toolkit's own device functions (cuRAND, texture fetches, math)
  // are modelled as the fallback headers declare them, by name and
  // signature: inlining their bodies costs much and shows no user access.
  // Those that synchronize, however deep their barrier (a tile's sync,
  // CUB's block collectives), are walked for it.
  if (!walksCallee(*definition))
    return opaqueCall(call, callee, object,
                      "result of " + callee->getNameAsString() + ", a library function");
  if (frames_.size() >= options_.max_inline_depth)
    return opaqueCall(call, callee, object,
                      "result of " + callee->getNameAsString() + " beyond the inlining depth");
  return inlineCall(*definition, call, object);
}

// `__syncthreads_count(p)`, `_and` and `_or` give every thread of the block
// the same result: one value per block, per barrier (the count of barriers
// the thread has passed) and per iteration of the enclosing loops. A
// thread that does not reach the barrier is a divergence, reported as such.
std::optional<Value> Builder::barrierResult(const clang::CallExpr &call,
                                            const clang::FunctionDecl &callee,
                                            const SyncFunction &sync) {
  std::string name = callee.getNameAsString();
  if (!sync.orders_block || sync.orders_grid || !call.getType()->isIntegerType() ||
      (name != "__syncthreads_count" && name != "__syncthreads_and" &&
       name != "__syncthreads_or"))
    return std::nullopt;
  IntType t = intTypeOf(call.getType());
  v1::Imprecision why;
  why.set_kind(v1::IMPRECISION_KIND_LOADED_VALUE);
  why.set_detail("result of " + name + ", the same in every thread of the block");
  *why.mutable_location() = locationOf(call);
  z3::expr value = sharedInBlock("result:" + name, t, std::nullopt, why);
  if (name != "__syncthreads_count")
    model_.thread_facts.push_back(value == arith_.constant(0, t) ||
                                  value == arith_.constant(1, t));
  return intValue(value, t);
}

std::optional<Value> Builder::libraryArithmetic(const clang::CallExpr &call,
                                                const clang::FunctionDecl &callee) {
  static const std::set<std::string> kMinimum = {"min", "umin", "llmin", "ullmin"};
  static const std::set<std::string> kMaximum = {"max", "umax", "llmax", "ullmax"};
  std::string name = callee.getNameAsString();
  bool minimum = kMinimum.count(name), maximum = kMaximum.count(name);
  bool multiply24 = name == "__umul24" || name == "__mul24";
  if (!(minimum || maximum || multiply24) || call.getNumArgs() != 2 ||
      !call.getType()->isIntegerType() || !call.getArg(0)->getType()->isIntegerType() ||
      !call.getArg(1)->getType()->isIntegerType())
    return std::nullopt;
  IntType t = intTypeOf(call.getType());
  bool is_signed = call.getType()->isSignedIntegerType();
  z3::expr a = asInt(eval(call.getArg(0)), t), b = asInt(eval(call.getArg(1)), t);
  if (!multiply24) {
    z3::expr less = arith_.less(a, b, is_signed);
    return intValue(minimum ? z3::ite(less, a, b) : z3::ite(less, b, a), t);
  }
  // The product of the operands' low 24 bits. On mathematical integers it
  // is the product itself: operands past 24 bits overflow, which that mode
  // assumes away as it does for `*`.
  if (arith_.mode() == OverflowMode::Math)
    return intValue(arith_.mul(a, b), t);
  auto low24 = [&](const z3::expr &x) {
    return is_signed ? z3::ashr(z3::shl(x, 8), 8) : x & arith_.constant(0xFFFFFF, t);
  };
  return intValue(low24(a) * low24(b), t);
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
  recordOrderedAtomic(call, pointer, *atomic, value_used);
  return freshValue(call.getType(), v1::IMPRECISION_KIND_LOADED_VALUE,
                    "result of " + call.getMethodDecl()->getNameAsString(), &call);
}

Value Builder::evalAtomic(const clang::CallExpr &call, const ScopedAtomicCall &atomic,
                          bool value_used) {
  Value pointer = eval(call.getArg(0));
  std::optional<Value> operand;
  for (unsigned i = 1; i < call.getNumArgs(); ++i) {
    Value v = eval(call.getArg(i));
    // compare_exchange_n writes what it found into the thread's `expected`.
    if (v.kind == Value::Kind::Pointer && !v.local.empty())
      forgetLocal(v.local);
    if (i == 1)
      operand = v;
  }
  if (pointer.kind == Value::Kind::Pointer && !pointer.object && !pointer.local.empty())
    forgetLocal(pointer.local); // an atomic on a thread's own variable
  recordOrderedAtomic(call, pointer, atomic, value_used);
  if (pointer.kind == Value::Kind::Pointer && pointer.object && !model_.accesses.empty() &&
      model_.accesses.back().site.kind() == v1::ACCESS_KIND_ATOMIC &&
      atomic.op == v1::ATOMIC_OP_EXCH && operand && operand->kind == Value::Kind::Int)
    model_.accesses.back().stored = operand->expr; // as a plain write would
  Value result = freshValue(call.getType(), v1::IMPRECISION_KIND_LOADED_VALUE,
                            "result of " + call.getDirectCallee()->getNameAsString(), &call);
  if (pointer.kind == Value::Kind::Pointer && pointer.object &&
      result.kind == Value::Kind::Int && handsOutTickets(call, atomic.op))
    model_.tickets.push_back({result.expr, pointer.expr, pointer.object});
  return result;
}

void Builder::recordOrderedAtomic(const clang::Expr &call, const Value &pointer,
                                  const ScopedAtomicCall &atomic, bool value_used) {
  if (pointer.kind != Value::Kind::Pointer || !pointer.object)
    return;
  Place where{Place::Kind::Memory, pointer.object, pointer.expr, {}};
  // A release orders what came before the atomic, an acquire what comes
  // after it: as a fence of the atomic's scope on that side.
  if (atomic.releases)
    recordFence(call, atomic.scope);
  recordAccess(where, &call, v1::ACCESS_KIND_ATOMIC, atomic.op, atomic.scope);
  if (!model_.accesses.empty() && model_.accesses.back().site.kind() == v1::ACCESS_KIND_ATOMIC)
    model_.accesses.back().value_used = value_used;
  if (atomic.acquires)
    recordFence(call, atomic.scope);
}

std::vector<const clang::Expr *> Builder::callArguments(const clang::CallExpr &call) const {
  std::vector<const clang::Expr *> args(call.arg_begin(), call.arg_end());
  auto *method = dyn_cast_or_null<clang::CXXMethodDecl>(call.getDirectCallee());
  if (isa<clang::CXXOperatorCallExpr>(call) && method && method->isInstance() &&
      !args.empty())
    args.erase(args.begin()); // the object the operator is called on
  return args;
}

std::optional<Value> Builder::implicitObject(const clang::CallExpr &call,
                                             const clang::Expr *object) {
  auto *method = dyn_cast_or_null<clang::CXXMethodDecl>(call.getDirectCallee());
  if (!method || !method->isInstance())
    return std::nullopt;
  if (!object && isa<clang::CXXOperatorCallExpr>(call) && call.getNumArgs() > 0)
    object = call.getArg(0);
  if (!object)
    return std::nullopt;
  if (object->getType()->isPointerType())
    return eval(object);
  return pointerFrom(place(object), object);
}

unsigned Builder::activeCalls(const clang::FunctionDecl &function) const {
  unsigned n = 0;
  for (const Frame &frame : frames_)
    n += frame.function == &function;
  return n;
}

Value Builder::opaqueCall(const clang::CallExpr &call, const clang::FunctionDecl *callee,
                          const clang::Expr *object, const std::string &why) {
  passOrderingPoint();
  auto *method = dyn_cast_or_null<clang::CXXMethodDecl>(callee);
  if (object && !object->getType()->isPointerType()) {
    Place where = place(object);
    if (where.kind == Place::Kind::Local && !(method && method->isConst()))
      forgetLocal(where.local_key);
  } else if (object) {
    eval(object);
  }
  std::vector<const clang::Expr *> args = callArguments(call);
  for (unsigned i = 0; i < args.size(); ++i) {
    const clang::ParmVarDecl *param =
        callee && i < callee->getNumParams() ? callee->getParamDecl(i) : nullptr;
    clang::QualType type = param ? param->getType() : args[i]->getType();
    Value v = type->isReferenceType() ? pointerFrom(place(args[i]), args[i]) : eval(args[i]);
    if (v.kind != Value::Kind::Pointer || !mayWriteThrough(type))
      continue;
    if (!v.local.empty())
      forgetLocal(v.local);
    else if (v.object == unknown_)
      forgetExposed();
  }
  clang::QualType type = call.getCallReturnType(ast_);
  if (type->isReferenceType())
    type = ast_.getPointerType(type.getNonReferenceType());
  return freshValue(type, v1::IMPRECISION_KIND_OPAQUE_CALL, why, &call);
}

Value Builder::assignAggregate(const clang::Expr *lhs, const clang::Expr *rhs) {
  Place to = place(lhs);
  std::optional<int64_t> offset =
      to.kind == Place::Kind::Local ? Arith::numeral(to.offset->simplify(), true)
                                    : std::nullopt;
  if (offset && isAggregate(to.local_key)) {
    copyInto(to.local_key, *offset, lhs->getType(), rhs);
  } else {
    Place from = place(rhs);
    if (from.kind == Place::Kind::Memory)
      recordAccess(from, rhs, v1::ACCESS_KIND_READ, v1::ATOMIC_OP_UNSPECIFIED,
                   v1::MEMORY_SCOPE_UNSPECIFIED);
    if (to.kind == Place::Kind::Local)
      forgetLocal(to.local_key);
    else if (to.kind == Place::Kind::Memory)
      assignTo(to, lhs, freshValue(lhs->getType(), v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                                   "struct value", lhs));
  }
  return pointerFrom(to, lhs);
}

Value Builder::inlineCall(const clang::FunctionDecl &definition, const clang::CallExpr &call,
                          const clang::Expr *object) {
  unsigned active = activeCalls(definition);
  if (active > 0 && countSync(definition.getBody()).any())
    unsupported("synchronization in recursive " + definition.getNameAsString(), call);
  if (active > 1)
    return opaqueCall(call, &definition, object,
                      "result of recursive " + definition.getNameAsString());
  std::optional<Value> self = implicitObject(call, object);
  std::vector<Value> values = argumentValues(definition, callArguments(call));
  // A recursive call reuses the storage of the active one: it is walked
  // once more with unknown arguments, which covers every deeper call, and
  // the active call's locals are restored afterwards.
  std::map<std::string, Value> saved;
  if (active > 0)
    for (const auto &[key, value] : state_.env)
      if (declaredIn(locals_.count(key.substr(0, key.find('@')))
                         ? locals_.at(key.substr(0, key.find('@'))).first
                         : nullptr,
                     definition))
        saved.insert_or_assign(key, value);
  for (unsigned i = 0; i < definition.getNumParams() && i < values.size(); ++i)
    bindArgument(*definition.getParamDecl(i), values[i], active > 0, call);
  std::map<const clang::ValueDecl *, GroupShape> caller_groups = group_shapes_;
  bindGroupParameters(definition, call);
  Frame frame{&definition, {}, {}, self, &call};
  frame.call.set_callee(definition.getQualifiedNameAsString());
  *frame.call.mutable_call_site() = locationOf(call);
  z3::expr entry_pc = state_.pc;
  frames_.push_back(std::move(frame));
  walk(definition.getBody());
  Frame done = std::move(frames_.back());
  frames_.pop_back();
  group_shapes_ = std::move(caller_groups);
  // Returns end their paths; the caller continues on all of them.
  state_.pc = entry_pc;
  for (const auto &[key, value] : saved)
    state_.env.insert_or_assign(key, value);
  if (active > 0)
    forgetExposed();
  return returnValue(done, call);
}

std::vector<Value> Builder::argumentValues(const clang::FunctionDecl &definition,
                                           const std::vector<const clang::Expr *> &args) {
  std::vector<Value> values;
  for (unsigned i = 0; i < args.size(); ++i) {
    const clang::ParmVarDecl *param =
        i < definition.getNumParams() ? definition.getParamDecl(i) : nullptr;
    clang::QualType type = param ? param->getType() : args[i]->getType();
    if (type->isReferenceType())
      values.push_back(pointerFrom(place(args[i]), args[i]));
    else if (type->isRecordType() || type->isArrayType())
      values.push_back(pointerFrom(temporary(*args[i]), args[i]));
    else
      values.push_back(eval(args[i]));
  }
  return values;
}

bool Builder::walksCallee(const clang::FunctionDecl &definition) const {
  return !ast_.getSourceManager().isInSystemHeader(definition.getLocation()) ||
         countSync(definition.getBody()).any();
}

void Builder::bindArgument(const clang::ParmVarDecl &param, const Value &value, bool unknown,
                           const clang::Expr &call) {
  std::string key = localKey(param);
  clang::QualType type = param.getType();
  if (type->isReferenceType()) {
    state_.env.insert_or_assign(key, value);
  } else if (unknown) {
    forgetLocal(key);
    state_.env.insert_or_assign(
        key, freshValue(type, v1::IMPRECISION_KIND_OPAQUE_CALL,
                        "argument '" + param.getNameAsString() + "' of a recursive call",
                        &call));
  } else if (type->isRecordType() || type->isArrayType()) {
    forgetLocal(key);
    copyPlace(key, 0, sizeOf(type), placeOf(value));
  } else {
    state_.env.insert_or_assign(key, asType(value, type));
  }
}

// The value a call returns: the returns' values under their path
// conditions (addresses, for a function returning a reference).
Value Builder::returnValue(const Frame &done, const clang::CallExpr &call) {
  clang::QualType type = call.getType();
  if (done.returns.empty())
    return freshValue(type, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                      "no value returned", &call);
  Value result = done.returns.back().second;
  for (auto it = done.returns.rbegin() + 1; it != done.returns.rend(); ++it) {
    const Value &v = it->second;
    if (result.kind == Value::Kind::Pointer || v.kind == Value::Kind::Pointer) {
      result = selectPointer(it->first, v, result);
    } else if (result.kind == Value::Kind::Bool && v.kind == Value::Kind::Bool) {
      result.expr = z3::ite(it->first, v.expr, result.expr);
    } else {
      IntType t = result.kind == Value::Kind::Int ? result.type : v.type;
      result = intValue(z3::ite(it->first, asInt(v, t), asInt(result, t)), t);
    }
  }
  return result;
}

} // namespace gpurace::analyzer::builder
