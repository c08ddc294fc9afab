// Calls through function pointers: each device function the pointer may
// hold is walked as the callee under its own choice, and the paths merge
// after the call as the branches of a switch do.
#include "analyzer/model/ModelBuilder.h"

namespace gpurace::analyzer::builder {

using clang::dyn_cast;

namespace {

// The function pointer a call goes through: `(*table[i])(...)` and
// `fp(...)` both call the value of the pointer expression under the
// dereferences and decays.
const clang::Expr *calledPointer(const clang::CallExpr &call) {
  const clang::Expr *e = call.getCallee();
  while (true) {
    e = e->IgnoreParens();
    if (auto *cast = dyn_cast<clang::ImplicitCastExpr>(e);
        cast && cast->getCastKind() == clang::CK_FunctionToPointerDecay) {
      e = cast->getSubExpr();
      continue;
    }
    if (auto *deref = dyn_cast<clang::UnaryOperator>(e);
        deref && deref->getOpcode() == clang::UO_Deref) {
      e = deref->getSubExpr();
      continue;
    }
    return e;
  }
}

} // namespace

// Which of `count` targets the pointer `callee` holds, in [0, count). A
// pointer read from a slot every thread names alike (`table[op]`, a
// __device__ variable) is the same function for all of them: dispatch
// tables are taken to be read-only while the kernel runs. Otherwise threads
// holding the same pointer value call the same function.
z3::expr Builder::choiceOfTarget(const clang::Expr &callee, size_t count) {
  z3::func_decl pick = symbols_.freshSharedFunction("callee", 1, kInt32);
  std::optional<z3::expr> key;
  auto *read = dyn_cast<clang::ImplicitCastExpr>(callee.IgnoreParens());
  if (read && read->getCastKind() == clang::CK_LValueToRValue) {
    Place where = place(read->getSubExpr());
    if (where.kind == Place::Kind::Memory) {
      recordAccess(where, read->getSubExpr(), v1::ACCESS_KIND_READ, v1::ATOMIC_OP_UNSPECIFIED,
                   v1::MEMORY_SCOPE_UNSPECIFIED);
      key = symbols_.isThreadDependent(*where.offset)
                ? freshValue(callee.getType(), v1::IMPRECISION_KIND_LOADED_VALUE,
                             "function pointer loaded from " + where.object->name, &callee)
                      .expr
                : *where.offset;
    } else if (where.kind == Place::Kind::Local) {
      key = asInt(readLocal(where, callee.getType(), read->getSubExpr()), kInt64);
    }
  }
  if (!key)
    key = asInt(eval(&callee), kInt64);
  z3::expr choice = pick(arith_.convert(*key, kInt64, kInt64));
  model_.thread_facts.push_back(
      arith_.lessEq(arith_.constant(0, kInt32), choice, true) &&
      arith_.less(choice, arith_.constant(static_cast<int64_t>(count), kInt32), true));
  return choice;
}

Value Builder::indirectCall(const clang::CallExpr &call) {
  clang::QualType type = call.getCallee()->getType();
  if (const auto *pointer = type->getAs<clang::PointerType>())
    type = pointer->getPointeeType();
  std::vector<const clang::FunctionDecl *> targets = unit_.indirectCallTargets().of(type);
  if (targets.empty())
    unsupported("call through a function pointer: no device function of type '" +
                    type.getAsString() + "' has its address taken",
                call);
  z3::expr choice = choiceOfTarget(*calledPointer(call), targets.size());
  if (targets.size() == 1)
    return inlineCall(*targets.front(), call, nullptr);
  State before = state_;
  std::vector<State> ends;
  Frame merged{nullptr, {}, {}, std::nullopt};
  for (size_t i = 0; i < targets.size(); ++i) {
    state_ = before;
    z3::expr picked = choice == arith_.constant(static_cast<int64_t>(i), kInt32);
    state_.pc = before.pc && picked;
    Value result = inlineCall(*targets[i], call, nullptr);
    merged.returns.emplace_back(picked, result);
    ends.push_back(state_);
  }
  state_ = ends.back();
  for (size_t i = ends.size() - 1; i-- > 0;) {
    State rest = state_;
    merge(ends[i], rest, merged.returns[i].first);
  }
  state_.pc = before.pc;
  return returnValue(merged, call);
}

} // namespace gpurace::analyzer::builder
