#include "analyzer/model/VariableWrites.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/AST/Expr.h>

#include <numeric>
#include <optional>

namespace gpurace::analyzer {

bool isVar(const clang::Expr *e, const clang::VarDecl &var) {
  auto *ref = clang::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
  return ref && ref->getDecl() == &var;
}

namespace {

std::optional<int64_t> constant(const clang::Expr *e, const clang::ASTContext &ast) {
  clang::Expr::EvalResult result;
  if (e->isValueDependent() || !e->EvaluateAsInt(result, ast))
    return std::nullopt;
  return result.Val.getInt().getExtValue();
}

// `var OP operand` with a constant operand.
VariableStep stepBy(clang::BinaryOperatorKind op, const clang::Expr *operand,
                    const clang::ASTContext &ast) {
  std::optional<int64_t> c = constant(operand, ast);
  if (!c)
    return {};
  using Kind = VariableStep::Kind;
  bool power_of_two = *c >= 1 && (*c & (*c - 1)) == 0;
  std::optional<int64_t> shifted;
  if (*c >= 0 && *c <= 62)
    shifted = int64_t(1) << *c;
  switch (op) {
  case clang::BO_Add: return {Kind::Add, *c};
  case clang::BO_Sub: return {Kind::Add, -*c};
  case clang::BO_Mul: return *c >= 1 ? VariableStep{Kind::Scale, 1, power_of_two, c} : VariableStep{};
  case clang::BO_Shl: return *c >= 0 ? VariableStep{Kind::Scale, 1, true, shifted} : VariableStep{};
  case clang::BO_Div: return *c >= 1 ? VariableStep{Kind::Scale, -1, power_of_two, c} : VariableStep{};
  case clang::BO_Shr: return *c >= 0 ? VariableStep{Kind::Scale, -1, true, shifted} : VariableStep{};
  default: return {};
  }
}

} // namespace

VariableStep stepOf(const clang::Stmt &write, const clang::VarDecl &var,
                    const clang::ASTContext &ast) {
  if (auto *unary = clang::dyn_cast<clang::UnaryOperator>(&write))
    return unary->isIncrementDecrementOp() && isVar(unary->getSubExpr(), var)
               ? VariableStep{VariableStep::Kind::Add, unary->isIncrementOp() ? 1 : -1}
               : VariableStep{};
  auto *op = clang::dyn_cast<clang::BinaryOperator>(&write);
  if (!op || !isVar(op->getLHS(), var))
    return {};
  if (op->isCompoundAssignmentOp())
    return stepBy(clang::BinaryOperator::getOpForCompoundAssignment(op->getOpcode()),
                  op->getRHS(), ast);
  auto *rhs = clang::dyn_cast<clang::BinaryOperator>(op->getRHS()->IgnoreParenImpCasts());
  if (op->getOpcode() != clang::BO_Assign || !rhs)
    return {};
  if (isVar(rhs->getLHS(), var))
    return stepBy(rhs->getOpcode(), rhs->getRHS(), ast);
  // `i = 4 + i`, `i = 2 * i`
  if ((rhs->getOpcode() == clang::BO_Add || rhs->getOpcode() == clang::BO_Mul) &&
      isVar(rhs->getRHS(), var))
    return stepBy(rhs->getOpcode(), rhs->getLHS(), ast);
  return {};
}

std::optional<StepSummary> summarizeSteps(const std::vector<const clang::Stmt *> &writes,
                                          const clang::VarDecl &var,
                                          const clang::ASTContext &ast) {
  StepSummary summary;
  for (const clang::Stmt *write : writes) {
    VariableStep step = stepOf(*write, var, ast);
    if (step.kind == VariableStep::Kind::Other)
      return std::nullopt;
    int sign = step.amount > 0 ? 1 : step.amount < 0 ? -1 : 0;
    if (sign == 0)
      continue;
    if (summary.direction != 0 && sign != summary.direction)
      return std::nullopt;
    summary.direction = sign;
    if (step.kind == VariableStep::Kind::Scale)
      summary.scales = true;
    else
      summary.stride = std::gcd(summary.stride, step.amount < 0 ? -step.amount : step.amount);
  }
  return summary;
}

bool scalesByPowersOfTwo(const std::vector<const clang::Stmt *> &writes,
                         const clang::VarDecl &var, const clang::ASTContext &ast) {
  for (const clang::Stmt *write : writes) {
    VariableStep step = stepOf(*write, var, ast);
    if (step.kind != VariableStep::Kind::Scale || !step.by_power_of_two)
      return false;
  }
  return !writes.empty();
}

std::vector<const clang::Stmt *> writesOf(const clang::Stmt &scope, const clang::VarDecl &var) {
  struct Finder : clang::DynamicRecursiveASTVisitor {
    const clang::VarDecl *var;
    std::vector<const clang::Stmt *> found;
    bool VisitBinaryOperator(clang::BinaryOperator *op) override {
      if (op->isAssignmentOp() && isVar(op->getLHS(), *var))
        found.push_back(op);
      return true;
    }
    bool VisitUnaryOperator(clang::UnaryOperator *op) override {
      if ((op->isIncrementDecrementOp() || op->getOpcode() == clang::UO_AddrOf) &&
          isVar(op->getSubExpr(), *var))
        found.push_back(op);
      return true;
    }
  } finder;
  finder.var = &var;
  finder.TraverseStmt(const_cast<clang::Stmt *>(&scope));
  return finder.found;
}

} // namespace gpurace::analyzer
