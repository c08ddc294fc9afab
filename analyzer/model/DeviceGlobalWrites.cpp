#include "analyzer/model/DeviceGlobalWrites.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/AST/ParentMapContext.h>

namespace gpurace::analyzer {

namespace {

using clang::dyn_cast;

bool isDeviceGlobal(const clang::VarDecl &var) {
  return var.hasGlobalStorage() &&
         (var.hasAttr<clang::CUDADeviceAttr>() || var.hasAttr<clang::CUDAConstantAttr>());
}

// Whether the expression `use`, naming a device global, only has its value
// (or an element's, a field's) loaded: its parents until the load are
// decays, parentheses, subscripts and member accesses of it.
bool onlyLoaded(clang::ASTContext &ast, const clang::Expr &use) {
  const clang::Stmt *current = &use;
  while (true) {
    auto parents = ast.getParents(*current);
    const clang::Stmt *parent = parents.empty() ? nullptr : parents[0].get<clang::Stmt>();
    if (!parent)
      return false;
    if (auto *cast = dyn_cast<clang::ImplicitCastExpr>(parent)) {
      if (cast->getCastKind() == clang::CK_LValueToRValue)
        return true;
      if (cast->getCastKind() != clang::CK_ArrayToPointerDecay &&
          cast->getCastKind() != clang::CK_NoOp)
        return false;
    } else if (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(parent)) {
      if (subscript->getBase() != current)
        return false;
    } else if (auto *member = dyn_cast<clang::MemberExpr>(parent)) {
      if (member->isArrow())
        return false;
    } else if (llvm::isa<clang::UnaryExprOrTypeTraitExpr>(parent)) {
      return true; // sizeof
    } else if (!llvm::isa<clang::ParenExpr>(parent)) {
      return false;
    }
    current = parent;
  }
}

class WriteFinder : public clang::DynamicRecursiveASTVisitor {
public:
  WriteFinder(clang::ASTContext &ast, std::set<const clang::VarDecl *> &written)
      : ast_(ast), written_(written) {
    ShouldVisitTemplateInstantiations = true;
  }

  // Host functions name device globals only to copy them
  // (cudaMemcpyToSymbol), which is not device code writing them.
  bool TraverseDecl(clang::Decl *decl) override {
    auto *function = llvm::dyn_cast_or_null<clang::FunctionDecl>(decl);
    if (function && !function->hasAttr<clang::CUDADeviceAttr>() &&
        !function->hasAttr<clang::CUDAGlobalAttr>())
      return true;
    return clang::DynamicRecursiveASTVisitor::TraverseDecl(decl);
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr *ref) override {
    auto *var = dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var && isDeviceGlobal(*var) && !onlyLoaded(ast_, *ref))
      written_.insert(var->getCanonicalDecl());
    return true;
  }

private:
  clang::ASTContext &ast_;
  std::set<const clang::VarDecl *> &written_;
};

} // namespace

DeviceGlobalWrites::DeviceGlobalWrites(clang::ASTContext &ast) {
  WriteFinder finder(ast, written_);
  finder.TraverseDecl(ast.getTranslationUnitDecl());
}

bool DeviceGlobalWrites::readOnly(const clang::VarDecl &var) const {
  return isDeviceGlobal(var) && !written_.count(var.getCanonicalDecl());
}

} // namespace gpurace::analyzer
