#include "analyzer/host/KernelPointers.h"

#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/AST/Expr.h>

#include <algorithm>

namespace gpurace::analyzer {

namespace {

using clang::dyn_cast;

// The values a pointer variable is given in its function.
class PointerAssignments : public clang::DynamicRecursiveASTVisitor {
public:
  explicit PointerAssignments(const clang::VarDecl &var) : var_(var) {}
  std::vector<const clang::Expr *> values;

  bool VisitBinaryOperator(clang::BinaryOperator *op) override {
    if (op->getOpcode() != clang::BO_Assign)
      return true;
    auto *ref = dyn_cast<clang::DeclRefExpr>(op->getLHS()->IgnoreParenImpCasts());
    if (ref && ref->getDecl() == &var_)
      values.push_back(op->getRHS());
    return true;
  }

private:
  const clang::VarDecl &var_;
};

void addKernelsOf(const clang::Expr *value, std::vector<const clang::FunctionDecl *> &out) {
  value = value->IgnoreParenCasts();
  if (auto *choice = dyn_cast<clang::ConditionalOperator>(value)) {
    addKernelsOf(choice->getTrueExpr(), out);
    addKernelsOf(choice->getFalseExpr(), out);
    return;
  }
  const clang::FunctionDecl *kernel = namedKernel(value);
  if (kernel && kernel->hasAttr<clang::CUDAGlobalAttr>() &&
      std::find(out.begin(), out.end(), kernel) == out.end())
    out.push_back(kernel);
}

} // namespace

const clang::FunctionDecl *namedKernel(const clang::Expr *e) {
  e = e->IgnoreParenCasts();
  if (auto *unary = dyn_cast<clang::UnaryOperator>(e))
    e = unary->getSubExpr()->IgnoreParenCasts();
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(e))
    return dyn_cast<clang::FunctionDecl>(ref->getDecl());
  return nullptr;
}

std::vector<const clang::FunctionDecl *> launchedKernels(const clang::Expr *callee) {
  if (const clang::FunctionDecl *kernel = namedKernel(callee))
    return {kernel};
  auto *ref = dyn_cast<clang::DeclRefExpr>(callee->IgnoreParenCasts());
  auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  auto *function =
      var && var->isLocalVarDecl()
          ? clang::dyn_cast_or_null<clang::FunctionDecl>(var->getParentFunctionOrMethod())
          : nullptr;
  std::vector<const clang::FunctionDecl *> kernels;
  if (!function || !function->hasBody())
    return kernels;
  if (var->getInit())
    addKernelsOf(var->getInit(), kernels);
  PointerAssignments assignments(*var);
  assignments.TraverseStmt(function->getBody());
  for (const clang::Expr *value : assignments.values)
    addKernelsOf(value, kernels);
  return kernels;
}

} // namespace gpurace::analyzer
