//===- LoopInduction.cpp - variables a loop steps by a fixed amount ---------===//
#include "analyzer/model/LoopInduction.h"

#include "analyzer/model/VariableWrites.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace gpurace::analyzer {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;

namespace {

const clang::VarDecl *referencedVar(const clang::Expr *e) {
  auto *ref = dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
  return ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

// A `continue` that belongs to the loop whose body is `stmt` (not to a
// loop nested in it).
bool hasOwnContinue(const clang::Stmt *stmt) {
  if (!stmt)
    return false;
  if (isa<clang::ContinueStmt>(stmt))
    return true;
  if (isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CXXForRangeStmt>(stmt))
    return false;
  for (const clang::Stmt *child : stmt->children())
    if (hasOwnContinue(child))
      return true;
  return false;
}

// The top-level statements of the loop's body, each of which runs once per
// iteration; none where a `continue` of the loop could skip some.
std::vector<const clang::Stmt *> unskippedStatements(const LoopShape &shape) {
  if (!shape.body || hasOwnContinue(shape.body))
    return {};
  if (auto *compound = dyn_cast<clang::CompoundStmt>(shape.body))
    return {compound->body_begin(), compound->body_end()};
  return {shape.body};
}

// Whether `e` has the same value in every iteration: constants, builtin
// coordinates and invariant variables combined by arithmetic, with no
// loads, calls or side effects.
bool isInvariant(const clang::Expr *e,
                 const std::function<bool(const clang::VarDecl &)> &invariant) {
  e = e->IgnoreParens();
  if (isa<clang::IntegerLiteral, clang::CharacterLiteral, clang::UnaryExprOrTypeTraitExpr,
          clang::CXXBoolLiteralExpr>(e))
    return true;
  if (auto *pseudo = dyn_cast<clang::PseudoObjectExpr>(e))
    return isa<clang::MSPropertyRefExpr>(pseudo->getSyntacticForm()->IgnoreParens());
  // A template's argument (`SY * width` in `template <int SY>`).
  if (auto *argument = dyn_cast<clang::SubstNonTypeTemplateParmExpr>(e))
    return isInvariant(argument->getReplacement(), invariant);
  if (auto *constant = dyn_cast<clang::ConstantExpr>(e))
    return isInvariant(constant->getSubExpr(), invariant);
  if (auto *cast = dyn_cast<clang::CastExpr>(e)) {
    // Reading a variable or a field of one is fine; reading memory is not.
    if (cast->getCastKind() == clang::CK_LValueToRValue &&
        !referencedVar(cast->getSubExpr()) && !isa<clang::MemberExpr>(cast->getSubExpr()->IgnoreParens()))
      return false;
    return isInvariant(cast->getSubExpr(), invariant);
  }
  // A field of a local struct (`dims.x`): invariant when the struct is.
  if (auto *member = dyn_cast<clang::MemberExpr>(e))
    return !member->isArrow() && isInvariant(member->getBase(), invariant);
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(e)) {
    if (isa<clang::EnumConstantDecl>(ref->getDecl()))
      return true;
    auto *var = dyn_cast<clang::VarDecl>(ref->getDecl());
    if (!var || var->getType()->isReferenceType())
      return false;
    // A constant, even one declared in the loop (`constexpr int kRow = 50`).
    if (var->getType()->isIntegralOrEnumerationType() &&
        var->isUsableInConstantExpressions(var->getASTContext()))
      return true;
    if (var->hasLocalStorage())
      return invariant(*var);
    // A constant of the program (`constexpr int kTile`, `const int N`).
    return var->getType().isConstQualified() && var->getType()->isIntegralOrEnumerationType();
  }
  if (auto *unary = dyn_cast<clang::UnaryOperator>(e))
    return (unary->getOpcode() == clang::UO_Minus || unary->getOpcode() == clang::UO_Plus ||
            unary->getOpcode() == clang::UO_Not) &&
           isInvariant(unary->getSubExpr(), invariant);
  if (auto *binary = dyn_cast<clang::BinaryOperator>(e))
    return !binary->isAssignmentOp() && !binary->isCommaOp() &&
           isInvariant(binary->getLHS(), invariant) && isInvariant(binary->getRHS(), invariant);
  if (auto *conditional = dyn_cast<clang::ConditionalOperator>(e))
    return isInvariant(conditional->getCond(), invariant) &&
           isInvariant(conditional->getTrueExpr(), invariant) &&
           isInvariant(conditional->getFalseExpr(), invariant);
  return false;
}

// `var` seen as a byte pointer, `(char *)var`.
bool isBytesOf(const clang::Expr *e, const clang::VarDecl &var) {
  auto *cast = dyn_cast<clang::ExplicitCastExpr>(e->IgnoreParens());
  return cast && cast->getType()->isPointerType() &&
         cast->getType()->getPointeeType()->isCharType() && isVar(cast->getSubExpr(), var);
}

// The sum or difference in `(T *)((char *)var + amount)`, for a pointer
// `var` of type T *.
const clang::BinaryOperator *byteStep(const clang::Expr *e, const clang::VarDecl &var) {
  auto *cast = dyn_cast<clang::ExplicitCastExpr>(e->IgnoreParens());
  if (!cast || !var.getType()->isPointerType() ||
      cast->getType().getCanonicalType().getUnqualifiedType() !=
          var.getType().getCanonicalType().getUnqualifiedType())
    return nullptr;
  auto *sum = dyn_cast<clang::BinaryOperator>(cast->getSubExpr()->IgnoreParens());
  if (!sum || (sum->getOpcode() != clang::BO_Add && sum->getOpcode() != clang::BO_Sub) ||
      !isBytesOf(sum->getLHS(), var))
    return nullptr;
  return sum;
}

// The step `write` makes to `var`, when it adds an invariant amount.
std::optional<InductionStep>
additiveStep(const clang::Stmt &write, const clang::VarDecl &var,
             const std::function<bool(const clang::VarDecl &)> &invariant) {
  InductionStep step;
  step.var = &var;
  if (auto *unary = dyn_cast<clang::UnaryOperator>(&write)) {
    if (!unary->isIncrementDecrementOp() || !isVar(unary->getSubExpr(), var))
      return std::nullopt;
    step.negate = unary->isDecrementOp();
    return step;
  }
  auto *op = dyn_cast<clang::BinaryOperator>(&write);
  if (!op || !isVar(op->getLHS(), var))
    return std::nullopt;
  const clang::Expr *amount = nullptr;
  if (op->getOpcode() == clang::BO_AddAssign || op->getOpcode() == clang::BO_SubAssign) {
    amount = op->getRHS();
    step.negate = op->getOpcode() == clang::BO_SubAssign;
  } else if (const clang::BinaryOperator *bytes = op->getOpcode() == clang::BO_Assign
                                                      ? byteStep(op->getRHS(), var)
                                                      : nullptr) {
    amount = bytes->getRHS();
    step.negate = bytes->getOpcode() == clang::BO_Sub;
    step.in_bytes = true;
  } else if (op->getOpcode() == clang::BO_Assign) {
    auto *sum = dyn_cast<clang::BinaryOperator>(op->getRHS()->IgnoreParenImpCasts());
    if (!sum || (sum->getOpcode() != clang::BO_Add && sum->getOpcode() != clang::BO_Sub))
      return std::nullopt;
    if (isVar(sum->getLHS(), var)) {
      amount = sum->getRHS();
      step.negate = sum->getOpcode() == clang::BO_Sub;
    } else if (sum->getOpcode() == clang::BO_Add && isVar(sum->getRHS(), var)) {
      amount = sum->getLHS();
    }
  }
  if (!amount || !amount->getType()->isIntegralOrEnumerationType() ||
      !isInvariant(amount, invariant))
    return std::nullopt;
  step.amount = amount;
  return step;
}

// The expressions that run exactly once per iteration, in order: the top
// level statements of the body (when no `continue` can skip them) and the
// increment's comma-separated parts.
std::vector<const clang::Stmt *> stepPositions(const LoopShape &shape) {
  std::vector<const clang::Stmt *> positions = unskippedStatements(shape);
  std::vector<const clang::Expr *> parts;
  if (auto *inc = dyn_cast_or_null<clang::Expr>(shape.inc))
    parts.push_back(inc);
  while (!parts.empty()) {
    const clang::Expr *part = parts.back()->IgnoreParenImpCasts();
    parts.pop_back();
    if (auto *comma = dyn_cast<clang::BinaryOperator>(part); comma && comma->isCommaOp()) {
      parts.push_back(comma->getRHS());
      parts.push_back(comma->getLHS());
    } else {
      positions.push_back(part);
    }
  }
  return positions;
}

// The writes that run whenever `position` runs: the position itself, and
// increments and assignments nested in its operands (`out[n++] = v`) where
// no `&&`, `||`, `?:` or lambda may skip them.
void collectUnconditionalWrites(const clang::Stmt *stmt, std::vector<const clang::Stmt *> &out) {
  if (!stmt)
    return;
  if (auto *full = dyn_cast<clang::FullExpr>(stmt))
    return collectUnconditionalWrites(full->getSubExpr(), out);
  if (auto *decl = dyn_cast<clang::DeclStmt>(stmt)) {
    for (const clang::Decl *d : decl->decls())
      if (auto *var = dyn_cast<clang::VarDecl>(d))
        collectUnconditionalWrites(var->getInit(), out);
    return;
  }
  auto *e = dyn_cast<clang::Expr>(stmt);
  if (!e)
    return;
  e = e->IgnoreParenImpCasts();
  if (auto *unary = dyn_cast<clang::UnaryOperator>(e); unary && unary->isIncrementDecrementOp())
    out.push_back(unary);
  if (auto *binary = dyn_cast<clang::BinaryOperator>(e)) {
    if (binary->isAssignmentOp() || binary->isCompoundAssignmentOp())
      out.push_back(binary);
    if (binary->isLogicalOp())
      return collectUnconditionalWrites(binary->getLHS(), out);
  }
  if (auto *conditional = dyn_cast<clang::AbstractConditionalOperator>(e))
    return collectUnconditionalWrites(conditional->getCond(), out);
  if (isa<clang::LambdaExpr, clang::StmtExpr, clang::BlockExpr>(e))
    return;
  for (const clang::Stmt *child : e->children())
    collectUnconditionalWrites(child, out);
}

// The writes that run exactly once per iteration, in the order they run.
std::vector<const clang::Stmt *> onceEachIteration(const LoopShape &shape) {
  std::vector<const clang::Stmt *> writes;
  for (const clang::Stmt *position : stepPositions(shape))
    collectUnconditionalWrites(position, writes);
  return writes;
}

// The writes of `var` in the loop's repeated parts.
std::vector<const clang::Stmt *> writesInLoop(const LoopShape &shape, const clang::VarDecl &var) {
  std::vector<const clang::Stmt *> all;
  for (const clang::Stmt *part : {shape.body, static_cast<const clang::Stmt *>(shape.cond),
                                  shape.inc})
    if (part) {
      auto more = writesOf(*part, var);
      all.insert(all.end(), more.begin(), more.end());
    }
  return all;
}

// The local integer or pointer variable `write` assigns or steps.
const clang::VarDecl *writtenLocal(const clang::Stmt &write) {
  const clang::VarDecl *var = nullptr;
  if (auto *unary = dyn_cast<clang::UnaryOperator>(&write))
    var = referencedVar(unary->getSubExpr());
  else if (auto *binary = dyn_cast<clang::BinaryOperator>(&write))
    var = referencedVar(binary->getLHS());
  if (!var || !var->hasLocalStorage() || var->getType()->isReferenceType() ||
      !(var->getType()->isIntegerType() || var->getType()->isPointerType()))
    return nullptr;
  return var;
}

// Calls `visit` with each write that runs once at a step position (see
// stepPositions and collectUnconditionalWrites) and is the only write of
// its local integer or pointer variable anywhere in the loop's repeated
// parts.
void forEachSoleStep(const LoopShape &shape,
                     const std::function<void(const clang::Stmt &, const clang::VarDecl &)> &visit) {
  for (const clang::Stmt *write : onceEachIteration(shape)) {
    const clang::VarDecl *var = writtenLocal(*write);
    if (!var)
      continue;
    std::vector<const clang::Stmt *> writes = writesInLoop(shape, *var);
    if (writes.size() == 1 && writes.front() == write)
      visit(*write, *var);
  }
}

// A `break` that leaves the loop whose body is `stmt`.
bool hasOwnBreak(const clang::Stmt *stmt) {
  if (!stmt)
    return false;
  if (isa<clang::BreakStmt>(stmt))
    return true;
  if (isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CXXForRangeStmt,
          clang::SwitchStmt>(stmt))
    return false;
  for (const clang::Stmt *child : stmt->children())
    if (hasOwnBreak(child))
      return true;
  return false;
}

// `for (c = start; c < bound; ++c)` with no break, the counter written only
// by its increment, and start and bound invariant.
std::optional<CountedLoop>
countedLoop(const clang::ForStmt &loop,
            const std::function<bool(const clang::VarDecl &)> &invariant) {
  const clang::VarDecl *counter = nullptr;
  const clang::Expr *start = nullptr;
  if (auto *decl = dyn_cast_or_null<clang::DeclStmt>(loop.getInit()); decl && decl->isSingleDecl()) {
    counter = dyn_cast<clang::VarDecl>(decl->getSingleDecl());
    start = counter ? counter->getInit() : nullptr;
  } else if (auto *init = dyn_cast_or_null<clang::BinaryOperator>(loop.getInit());
             init && init->getOpcode() == clang::BO_Assign) {
    counter = referencedVar(init->getLHS());
    start = init->getRHS();
  }
  auto *cond = dyn_cast_or_null<clang::BinaryOperator>(loop.getCond());
  if (!counter || !start || !cond || cond->getOpcode() != clang::BO_LT ||
      !isVar(cond->getLHS(), *counter) || !counter->getType()->isIntegerType() ||
      !isInvariant(start, invariant) || !isInvariant(cond->getRHS(), invariant) ||
      hasOwnBreak(loop.getBody()))
    return std::nullopt;
  const clang::Stmt *inc = loop.getInc();
  std::optional<InductionStep> step =
      inc ? additiveStep(*inc, *counter, [](const clang::VarDecl &) { return false; })
          : std::nullopt;
  auto *literal = step && step->amount
                      ? dyn_cast<clang::IntegerLiteral>(step->amount->IgnoreParenImpCasts())
                      : nullptr;
  bool by_one = step && !step->negate && (!step->amount || (literal && literal->getValue() == 1));
  if (!by_one || (loop.getBody() && !writesOf(*loop.getBody(), *counter).empty()))
    return std::nullopt;
  return CountedLoop{&loop, start, cond->getRHS()};
}

// The `if` statements at the body's top level, where no `continue` can skip
// them, whose condition is the same in every iteration.
std::vector<const clang::IfStmt *>
invariantBranches(const LoopShape &shape,
                  const std::function<bool(const clang::VarDecl &)> &invariant) {
  std::vector<const clang::IfStmt *> branches;
  for (const clang::Stmt *position : unskippedStatements(shape))
    if (auto *branch = dyn_cast_or_null<clang::IfStmt>(position);
        branch && !branch->getInit() && !branch->getConditionVariable() &&
        !branch->isConstexpr() && isInvariant(branch->getCond(), invariant))
      branches.push_back(branch);
  return branches;
}

// Walks a loop for `boundedIncrement`: the increments of `var` it finds,
// and whether anything else than a read or such an increment mentions it.
struct IncrementScan {
  const clang::VarDecl &var;
  const clang::ASTContext &ast;
  const clang::Stmt *root;
  int increments = 0;
  int64_t amount = 0;
  bool other_use = false;

  void scan(const clang::Stmt *stmt, int depth) {
    if (!stmt || other_use)
      return;
    if (isa<clang::GotoStmt, clang::IndirectGotoStmt>(stmt)) {
      other_use = true;
      return;
    }
    if (auto *cast = dyn_cast<clang::ImplicitCastExpr>(stmt);
        cast && cast->getCastKind() == clang::CK_LValueToRValue && isVar(cast->getSubExpr(), var))
      return;
    const clang::Expr *target = nullptr;
    if (auto *unary = dyn_cast<clang::UnaryOperator>(stmt); unary && unary->isIncrementDecrementOp())
      target = unary->getSubExpr();
    else if (auto *binary = dyn_cast<clang::BinaryOperator>(stmt); binary && binary->isAssignmentOp())
      target = binary->getLHS();
    if (target && isVar(target, var)) {
      VariableStep step = stepOf(*stmt, var, ast);
      if (depth > 0 || step.kind != VariableStep::Kind::Add || step.amount <= 0 ||
          (increments && step.amount != amount)) {
        other_use = true;
        return;
      }
      ++increments;
      amount = step.amount;
      if (auto *binary = dyn_cast<clang::BinaryOperator>(stmt))
        scan(binary->getRHS(), depth);
      return;
    }
    if (auto *ref = dyn_cast<clang::DeclRefExpr>(stmt); ref && ref->getDecl() == &var) {
      other_use = true;
      return;
    }
    bool nested = stmt != root && isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt,
                                      clang::CXXForRangeStmt>(stmt);
    for (const clang::Stmt *child : stmt->children())
      scan(child, depth + (nested ? 1 : 0));
  }
};

} // namespace

std::vector<InductionStep>
nestedInductionSteps(const LoopShape &shape,
                     const std::function<bool(const clang::VarDecl &)> &invariant) {
  std::vector<InductionStep> steps;
  for (const clang::Stmt *position : unskippedStatements(shape)) {
    auto *inner = dyn_cast_or_null<clang::ForStmt>(position);
    std::optional<CountedLoop> counted = inner ? countedLoop(*inner, invariant) : std::nullopt;
    if (!counted)
      continue;
    LoopShape inner_shape{inner->getBody(), inner->getCond(), inner->getInc()};
    std::vector<InductionStep> inner_steps = inductionSteps(inner_shape, invariant);
    std::vector<InductionStep> deeper = nestedInductionSteps(inner_shape, invariant);
    inner_steps.insert(inner_steps.end(), deeper.begin(), deeper.end());
    for (InductionStep &step : inner_steps) {
      // The inner loop's step is the variable's only write in this loop.
      std::vector<const clang::Stmt *> writes = writesInLoop(shape, *step.var);
      std::vector<const clang::Stmt *> inside = writesInLoop(inner_shape, *step.var);
      if (writes.size() != 1 || inside.size() != 1 || writes.front() != inside.front())
        continue;
      step.repeats.insert(step.repeats.begin(), *counted);
      steps.push_back(step);
    }
  }
  return steps;
}

std::vector<InductionStep>
inductionSteps(const LoopShape &shape,
               const std::function<bool(const clang::VarDecl &)> &invariant) {
  std::vector<InductionStep> steps;
  forEachSoleStep(shape, [&](const clang::Stmt &write, const clang::VarDecl &var) {
    if (auto step = additiveStep(write, var, invariant))
      steps.push_back(*step);
  });
  for (const clang::IfStmt *branch : invariantBranches(shape, invariant))
    for (const clang::Stmt *arm : {branch->getThen(), branch->getElse()})
      for (const clang::Stmt *write : onceEachIteration({arm, nullptr, nullptr})) {
        const clang::VarDecl *var = writtenLocal(*write);
        std::vector<const clang::Stmt *> writes =
            var ? writesInLoop(shape, *var) : std::vector<const clang::Stmt *>{};
        std::optional<InductionStep> step =
            writes.size() == 1 && writes.front() == write ? additiveStep(*write, *var, invariant)
                                                          : std::nullopt;
        if (!step)
          continue;
        step->guard = branch->getCond();
        step->guard_negated = arm == branch->getElse();
        steps.push_back(*step);
      }
  return steps;
}

std::vector<ScalingStep> scalingSteps(const LoopShape &shape, const clang::ASTContext &ast) {
  std::vector<ScalingStep> steps;
  forEachSoleStep(shape, [&](const clang::Stmt &write, const clang::VarDecl &var) {
    if (!var.getType()->isIntegerType() || var.getType()->isBooleanType())
      return;
    VariableStep step = stepOf(write, var, ast);
    if (step.kind == VariableStep::Kind::Scale && step.factor && *step.factor >= 2 &&
        *step.factor <= (int64_t(1) << 30))
      steps.push_back({&var, *step.factor, step.amount > 0});
  });
  return steps;
}

std::vector<LaggingCopy> laggingCopies(const LoopShape &shape,
                                       const std::vector<ScalingStep> &scaled) {
  std::vector<LaggingCopy> copies;
  std::vector<const clang::Stmt *> once = onceEachIteration(shape);
  auto runsBefore = [&](const clang::Stmt *first, const clang::Stmt *second) {
    auto at = std::find(once.begin(), once.end(), first);
    return at != once.end() && std::find(at + 1, once.end(), second) != once.end();
  };
  forEachSoleStep(shape, [&](const clang::Stmt &write, const clang::VarDecl &copy) {
    auto *assign = dyn_cast<clang::BinaryOperator>(&write);
    if (!assign || assign->getOpcode() != clang::BO_Assign || !copy.getType()->isIntegerType())
      return;
    const clang::VarDecl *source = referencedVar(assign->getRHS());
    for (const ScalingStep &step : scaled)
      if (step.var == source && source != &copy) {
        std::vector<const clang::Stmt *> steps = writesInLoop(shape, *source);
        if (steps.size() == 1 && runsBefore(&write, steps.front()))
          copies.push_back({&copy, step});
      }
  });
  return copies;
}

std::vector<AffineScalingStep> affineScalingSteps(const LoopShape &shape,
                                                  const clang::ASTContext &ast) {
  std::vector<AffineScalingStep> steps;
  std::vector<const clang::Stmt *> once = onceEachIteration(shape);
  std::set<const clang::VarDecl *> seen;
  for (const clang::Stmt *write : once) {
    const clang::VarDecl *var = writtenLocal(*write);
    if (!var || !var->getType()->isIntegerType() || var->getType()->isBooleanType() ||
        !seen.insert(var).second)
      continue;
    std::vector<const clang::Stmt *> writes = writesInLoop(shape, *var);
    if (writes.size() != 2)
      continue;
    // Both writes run once per iteration; `once` has them in running order.
    std::vector<VariableStep> in_order;
    for (const clang::Stmt *candidate : once)
      if (candidate == writes[0] || candidate == writes[1])
        in_order.push_back(stepOf(*candidate, *var, ast));
    if (in_order.size() != 2)
      continue;
    const VariableStep &first = in_order[0], &second = in_order[1];
    bool add_first = first.kind == VariableStep::Kind::Add;
    const VariableStep &add = add_first ? first : second;
    const VariableStep &scale = add_first ? second : first;
    if (add.kind != VariableStep::Kind::Add || scale.kind != VariableStep::Kind::Scale ||
        scale.amount <= 0 || !scale.factor || *scale.factor < 2 ||
        *scale.factor > (int64_t(1) << 30) || add.amount == 0 ||
        add.amount > (int64_t(1) << 30) || add.amount < -(int64_t(1) << 30))
      continue;
    int64_t f = *scale.factor;
    // d' = f * (d + a) or f * d + a.
    int64_t b = add_first ? f * add.amount : add.amount;
    if (b % (f - 1) != 0)
      continue;
    steps.push_back({var, f, b / (f - 1)});
  }
  return steps;
}

std::vector<LoopReset> resetsAtEnd(const LoopShape &shape,
                                   const std::function<bool(const clang::VarDecl &)> &invariant) {
  std::vector<LoopReset> resets;
  std::vector<const clang::Stmt *> statements = unskippedStatements(shape);
  for (size_t i = 0; i < statements.size(); ++i) {
    auto *expr = dyn_cast<clang::Expr>(statements[i]);
    auto *assign = expr ? dyn_cast<clang::BinaryOperator>(expr->IgnoreImplicit()) : nullptr;
    if (!assign || assign->getOpcode() != clang::BO_Assign)
      continue;
    const clang::VarDecl *var = writtenLocal(*assign);
    if (!var || !var->getType()->isIntegerType() || !isInvariant(assign->getRHS(), invariant))
      continue;
    bool written_later = false;
    for (size_t j = i + 1; j < statements.size(); ++j)
      written_later = written_later || !writesOf(*statements[j], *var).empty();
    for (const clang::Stmt *part : {static_cast<const clang::Stmt *>(shape.cond), shape.inc})
      written_later = written_later || (part && !writesOf(*part, *var).empty());
    if (!written_later)
      resets.push_back({var, assign->getRHS()});
  }
  return resets;
}

std::optional<int64_t> boundedIncrement(const clang::Stmt &loop, const clang::VarDecl &var,
                                        const clang::ASTContext &ast) {
  if (!var.getType()->isIntegerType() || var.getType()->isBooleanType())
    return std::nullopt;
  IncrementScan scan{var, ast, &loop};
  scan.scan(&loop, 0);
  if (scan.other_use || scan.increments != 1)
    return std::nullopt;
  return scan.amount;
}

} // namespace gpurace::analyzer
