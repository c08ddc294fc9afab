#include "analyzer/model/IndirectCallTargets.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>

#include <set>

namespace gpurace::analyzer {

namespace {

// Functions named other than as the callee of a direct call.
class AddressTakenFinder : public clang::DynamicRecursiveASTVisitor {
public:
  explicit AddressTakenFinder(const clang::SourceManager &sources) : sources_(sources) {
    ShouldVisitTemplateInstantiations = true;
  }

  bool TraverseDecl(clang::Decl *decl) override {
    if (decl && !llvm::isa<clang::TranslationUnitDecl>(decl) &&
        sources_.isInSystemHeader(decl->getLocation()))
      return true;
    return clang::DynamicRecursiveASTVisitor::TraverseDecl(decl);
  }

  bool VisitCallExpr(clang::CallExpr *call) override {
    if (auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(call->getCallee()->IgnoreParenImpCasts()))
      callees_.insert(ref);
    return true;
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr *ref) override {
    auto *function = llvm::dyn_cast<clang::FunctionDecl>(ref->getDecl());
    if (function && !callees_.count(ref))
      taken_.insert(function->getCanonicalDecl());
    return true;
  }

  const std::set<const clang::FunctionDecl *> &taken() const { return taken_; }

private:
  const clang::SourceManager &sources_;
  std::set<const clang::DeclRefExpr *> callees_;
  std::set<const clang::FunctionDecl *> taken_;
};

} // namespace

IndirectCallTargets::IndirectCallTargets(clang::ASTContext &ast) : ast_(ast) {
  AddressTakenFinder finder(ast.getSourceManager());
  finder.TraverseDecl(ast.getTranslationUnitDecl());
  for (const clang::FunctionDecl *function : finder.taken()) {
    const clang::FunctionDecl *definition = nullptr;
    if (!function->hasBody(definition) || !definition->hasAttr<clang::CUDADeviceAttr>() ||
        definition->hasAttr<clang::CUDAGlobalAttr>())
      continue;
    address_taken_.push_back(definition);
  }
  const clang::SourceManager &sources = ast.getSourceManager();
  std::sort(address_taken_.begin(), address_taken_.end(),
            [&](const clang::FunctionDecl *a, const clang::FunctionDecl *b) {
              return sources.isBeforeInTranslationUnit(a->getLocation(), b->getLocation());
            });
}

std::vector<const clang::FunctionDecl *>
IndirectCallTargets::of(clang::QualType function_type) const {
  std::vector<const clang::FunctionDecl *> out;
  for (const clang::FunctionDecl *function : address_taken_)
    if (ast_.hasSameType(function->getType(), function_type))
      out.push_back(function);
  return out;
}

} // namespace gpurace::analyzer
