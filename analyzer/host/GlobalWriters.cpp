#include "analyzer/host/GlobalWriters.h"

#include "analyzer/host/HostExpressions.h"
#include "analyzer/host/ReachingDefinitions.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

namespace gpurace::analyzer {

namespace {

class WriterFinder : public clang::DynamicRecursiveASTVisitor {
public:
  WriterFinder(clang::ASTContext &ast,
               std::map<const clang::VarDecl *, std::set<const clang::FunctionDecl *>> &writers,
               std::set<const clang::VarDecl *> &copied)
      : ast_(ast), writers_(writers), copied_(copied) {}

  bool TraverseDecl(clang::Decl *decl) override {
    if (decl && !clang::isa<clang::TranslationUnitDecl>(decl) &&
        ast_.getSourceManager().isInSystemHeader(decl->getLocation()))
      return true;
    bool function = clang::isa_and_nonnull<clang::FunctionDecl>(decl);
    function_depth_ += function;
    bool out = clang::DynamicRecursiveASTVisitor::TraverseDecl(decl);
    function_depth_ -= function;
    return out;
  }

  bool VisitFunctionDecl(clang::FunctionDecl *function) override {
    if (!function->doesThisDeclarationHaveABody())
      return true;
    ReachingDefinitions environment(ast_, function);
    for (const clang::VarDecl *var : environment.writtenVariables())
      if (isGlobalVariable(*var))
        writers_[var->getCanonicalDecl()].insert(function->getCanonicalDecl());
    return true;
  }

  // `int *view = &n;` at file scope: whatever writes through `view`.
  bool VisitUnaryOperator(clang::UnaryOperator *op) override {
    if (op->getOpcode() != clang::UO_AddrOf || function_depth_ > 0)
      return true;
    if (const clang::VarDecl *var = globalIn(op->getSubExpr())) {
      writers_[var].insert(nullptr);
      copied_.insert(var);
    }
    return true;
  }

  bool VisitVarDecl(clang::VarDecl *var) override {
    if (isGlobalVariable(*var) && var->getType()->isPointerType() && var->getInit() &&
        copiesPointer(var->getInit(), ast_))
      copied_.insert(var->getCanonicalDecl());
    return true;
  }

  bool VisitBinaryOperator(clang::BinaryOperator *op) override {
    if (op->getOpcode() == clang::BO_Assign && op->getLHS()->getType()->isPointerType() &&
        copiesPointer(op->getRHS(), ast_))
      if (const clang::VarDecl *var = globalIn(op->getLHS()))
        copied_.insert(var);
    return true;
  }

private:
  // The global (its canonical declaration) an lvalue is part of: `g`,
  // `g.field`, `g[i]`.
  static const clang::VarDecl *globalIn(const clang::Expr *e) {
    e = e->IgnoreParenCasts();
    while (true) {
      if (auto *member = clang::dyn_cast<clang::MemberExpr>(e); member && !member->isArrow())
        e = member->getBase()->IgnoreParenCasts();
      else if (auto *element = clang::dyn_cast<clang::ArraySubscriptExpr>(e);
               element && element->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
        e = element->getBase()->IgnoreParenCasts();
      else
        break;
    }
    auto *ref = clang::dyn_cast<clang::DeclRefExpr>(e);
    auto *var = ref ? clang::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    return var && isGlobalVariable(*var) ? var->getCanonicalDecl() : nullptr;
  }

  clang::ASTContext &ast_;
  std::map<const clang::VarDecl *, std::set<const clang::FunctionDecl *>> &writers_;
  std::set<const clang::VarDecl *> &copied_;
  int function_depth_ = 0;
};

} // namespace

GlobalWriters::GlobalWriters(clang::ASTContext &ast) {
  WriterFinder finder(ast, writers_, copied_);
  finder.TraverseDecl(ast.getTranslationUnitDecl());
}

const std::set<const clang::FunctionDecl *> &GlobalWriters::of(const clang::VarDecl &var) const {
  static const std::set<const clang::FunctionDecl *> none;
  auto found = writers_.find(var.getCanonicalDecl());
  return found == writers_.end() ? none : found->second;
}

bool GlobalWriters::mayCopyAPointer(const clang::VarDecl &var) const {
  return copied_.count(var.getCanonicalDecl()) > 0;
}

} // namespace gpurace::analyzer

