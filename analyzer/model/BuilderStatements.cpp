//===- BuilderStatements.cpp - statements of a kernel body ------------------===//
//
// Blocks, declarations, branches and returns: branches become path
// conditions and merged values.
//
//===----------------------------------------------------------------------===//
#include "analyzer/model/ModelBuilder.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Attr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>

namespace gpurace::analyzer::builder {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;

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
    walkLoop(*while_stmt, {while_stmt->getBody(), while_stmt->getCond(), nullptr}, {});
  } else if (auto *do_stmt = dyn_cast<clang::DoStmt>(stmt)) {
    // The condition runs after the body: as the loop's increment.
    walkLoop(*do_stmt, {do_stmt->getBody(), nullptr, do_stmt->getCond()}, {});
  } else if (auto *ret = dyn_cast<clang::ReturnStmt>(stmt)) {
    walkReturn(*ret);
  } else if (isa<clang::BreakStmt, clang::ContinueStmt>(stmt)) {
    // The rest of this iteration is not executed on this path; a break of
    // the loop itself leaves it with this state.
    if (isa<clang::BreakStmt>(stmt) && !loop_exits_.empty() &&
        loop_exits_.back().switch_depth == switches_.size())
      loop_exits_.back().breaks.push_back(state_);
    if (isa<clang::ContinueStmt>(stmt) && !loop_exits_.empty())
      loop_exits_.back().continues.push_back(state_);
    endPath();
  } else if (auto *range_for = dyn_cast<clang::CXXForRangeStmt>(stmt)) {
    walkForRange(*range_for);
  } else if (auto *sw = dyn_cast<clang::SwitchStmt>(stmt)) {
    walkSwitch(*sw);
  } else if (auto *c = dyn_cast<clang::SwitchCase>(stmt)) {
    enterCase(*c);
    walk(c->getSubStmt());
  } else if (isa<clang::GotoStmt, clang::IndirectGotoStmt>(stmt)) {
    // A jump can make a loop or skip assignments the walk would execute.
    unsupported("goto statement", *stmt);
  } else if (auto *assembly = dyn_cast<clang::AsmStmt>(stmt)) {
    walkAsm(*assembly);
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
  if (isGroupClass(type))
    bindGroupShape(var, init);
  if (type->isRecordType() || type->isArrayType()) {
    // Thread-private aggregates: values by offset in the local's storage,
    // none known before the initializer (a loop or a call may declare it
    // again).
    std::string root = localKey(var);
    forgetLocal(root);
    initLocal(root, 0, type, init);
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
  // A counter neither side advanced stays the term it was: a branch on the
  // thread (`if (tid == 0)`) leaves it the same for every thread.
  auto pick = [&](const z3::expr &then_count, const z3::expr &else_count) {
    return z3::eq(then_count, else_count) ? then_count
                                          : z3::ite(condition, then_count, else_count);
  };
  state_.block = pick(then_state.block, else_state.block);
  state_.warp = pick(then_state.warp, else_state.warp);
  state_.grid = pick(then_state.grid, else_state.grid);
  state_.masked_warp.clear();
  for (const State *side : {&then_state, &else_state})
    for (const auto &[mask, unused] : side->masked_warp)
      state_.masked_warp.insert_or_assign(
          mask, pick(maskedCount(then_state, mask), maskedCount(else_state, mask)));
  // A value known on one side only is unknown after the merge (the other
  // side wrote it where the model could not follow, or never declared it).
  state_.env.clear();
  for (const auto &[key, then_value] : then_state.env) {
    auto it = else_state.env.find(key);
    if (it == else_state.env.end())
      continue;
    Value else_value = it->second;
    state_.env.insert_or_assign(key, else_value);
    if (z3::eq(then_value.expr, else_value.expr) &&
        then_value.object == else_value.object && then_value.local == else_value.local)
      continue;
    if (then_value.kind == Value::Kind::Pointer || else_value.kind == Value::Kind::Pointer) {
      state_.env.insert_or_assign(key, selectPointer(condition, then_value, else_value));
      continue;
    }
    if (then_value.kind == Value::Kind::Bool || else_value.kind == Value::Kind::Bool) {
      state_.env.insert_or_assign(
          key, boolValue(z3::ite(condition, asBool(then_value), asBool(else_value))));
      continue;
    }
    IntType t = then_value.type;
    state_.env.insert_or_assign(
        key, intValue(z3::ite(condition, asInt(then_value, t), asInt(else_value, t)), t));
  }
}

void Builder::walkIf(const clang::IfStmt &stmt) {
  if (stmt.getInit())
    walk(stmt.getInit());
  if (stmt.getConditionVariableDeclStmt())
    walk(stmt.getConditionVariableDeclStmt());
  z3::expr condition = asBool(eval(stmt.getCond()));
  State before = state_;
  z3::expr then_entry = before.pc && condition, else_entry = before.pc && !condition;
  state_.pc = then_entry;
  walk(stmt.getThen());
  State then_state = state_;
  state_ = before;
  state_.pc = else_entry;
  walk(stmt.getElse());
  State else_state = state_;
  merge(then_state, else_state, condition);
  // Where neither side ended a path, every thread that came goes on: the
  // path condition stays the one before the branch rather than growing by
  // the condition (a function's return value, say) on every later access.
  // Inside a loop the merged condition is kept: the loop's checks of its
  // body's end state (values kept alike, how threads leave) read it.
  if (iterations_.empty() && z3::eq(then_state.pc, then_entry) &&
      z3::eq(else_state.pc, else_entry))
    state_.pc = before.pc;
}

void Builder::walkReturn(const clang::ReturnStmt &stmt) {
  if (const clang::Expr *value = stmt.getRetValue()) {
    // A function returning a reference returns its referent's address.
    bool by_reference =
        !frames_.empty() && frames_.back().function->getReturnType()->isReferenceType();
    bool record = !frames_.empty() && !by_reference && value->getType()->isRecordType();
    Value result = by_reference ? pointerFrom(place(value), value)
                   : record     ? returnedObject(*value)
                                : eval(value);
    if (!frames_.empty())
      frames_.back().returns.emplace_back(state_.pc, result);
  }
  for (LoopExits &exits : loop_exits_)
    exits.returns |= exits.frame_depth == frames_.size();
  endPath();
}

Value Builder::returnedObject(const clang::Expr &value) {
  Place object = value.isGLValue() ? place(&value) : temporary(value);
  if (object.kind != Place::Kind::Local)
    return freshValue(value.getType(), v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                      "aggregate value", &value);
  // Not exposed: only the caller's copy reads it.
  return pointerValue(*object.offset, nullptr, object.local_key);
}

std::optional<Place> Builder::returnedPlace(const clang::CallExpr &call) {
  Value result = eval(&call);
  if (result.kind != Value::Kind::Pointer || result.object || result.local.empty())
    return std::nullopt;
  return placeOf(result);
}

// A switch: each case is entered either by falling through or by a jump
// from the switch when its label matches. Locals the body assigns are
// unknown at each label and after the switch, whichever way they came.
void Builder::walkSwitch(const clang::SwitchStmt &stmt) {
  walk(stmt.getInit());
  walk(stmt.getConditionVariableDeclStmt());
  Value condition = eval(stmt.getCond());
  SyncCount sync = countSync(stmt.getBody());
  switches_.push_back({&stmt, condition, intTypeOf(stmt.getCond()->getType()), state_,
                       assignedIn(stmt.getBody())});
  state_.pc = ctx().bool_val(false); // only a matching label enters the body
  walk(stmt.getBody());
  State entry = switches_.back().entry;
  std::set<std::string> assigned = switches_.back().assigned;
  switches_.pop_back();
  // Breaks and the end of the body all continue after the switch.
  std::map<std::string, Value> env = state_.env;
  state_ = entry;
  state_.env = env;
  // Cases take different numbers of each synchronization the body holds.
  if (sync.block || sync.block_varies)
    state_.block = arith_.add(entry.block, symbols_.freshShared("blocksync", kInt64));
  if (sync.warp || sync.warp_varies)
    state_.warp = arith_.add(entry.warp, symbols_.freshShared("warpsync", kInt64));
  if (sync.grid || sync.grid_varies)
    state_.grid = arith_.add(entry.grid, symbols_.freshShared("gridsync", kInt64));
  std::vector<z3::expr> iterations = iterations_;
  iterations.push_back(symbols_.freshLocal("case", kInt64));
  havoc(assigned, stmt, iterations);
}

void Builder::enterCase(const clang::SwitchCase &label) {
  if (switches_.empty())
    return;
  const SwitchContext &sw = switches_.back();
  z3::expr matches = ctx().bool_val(true); // default, or a label not constant
  if (auto *c = dyn_cast<clang::CaseStmt>(&label)) {
    clang::Expr::EvalResult low, high;
    z3::expr value = asInt(sw.condition, sw.type);
    if (!c->getLHS()->isValueDependent() && c->getLHS()->EvaluateAsInt(low, ast_)) {
      z3::expr lo = arith_.constant(low.Val.getInt().getExtValue(), sw.type);
      matches = value == lo;
      if (c->getRHS() && !c->getRHS()->isValueDependent() &&
          c->getRHS()->EvaluateAsInt(high, ast_))
        matches = arith_.lessEq(lo, value, sw.type.is_signed) &&
                  arith_.lessEq(value, arith_.constant(high.Val.getInt().getExtValue(), sw.type),
                                sw.type.is_signed);
    }
  }
  z3::expr fallthrough = state_.pc;
  z3::expr jump = sw.entry.pc && matches;
  state_.block = z3::ite(fallthrough, state_.block, sw.entry.block);
  state_.warp = z3::ite(fallthrough, state_.warp, sw.entry.warp);
  state_.grid = z3::ite(fallthrough, state_.grid, sw.entry.grid);
  state_.pc = (fallthrough || jump).simplify();
  std::vector<z3::expr> iterations = iterations_;
  iterations.push_back(symbols_.freshLocal("case", kInt64));
  havoc(sw.assigned, *sw.stmt, iterations);
}

void Builder::walkForRange(const clang::CXXForRangeStmt &stmt) {
  walk(stmt.getInit());
  walk(stmt.getRangeStmt());
  walk(stmt.getBeginStmt());
  walk(stmt.getEndStmt());
  walkLoop(stmt, {stmt.getBody(), stmt.getCond(), stmt.getInc()}, {}, stmt.getLoopVarStmt());
}

// Inline assembly: its inputs are evaluated and its outputs become unknown;
// memory it touches is not modelled, and it may hold a fence or a barrier.
void Builder::walkAsm(const clang::AsmStmt &stmt) {
  passOrderingPoint();
  for (const clang::Expr *input : stmt.inputs())
    eval(input);
  for (const clang::Expr *output : stmt.outputs())
    assign(output, freshValue(output->getType(), v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                              "output of inline assembly", &stmt));
}

} // namespace gpurace::analyzer::builder
