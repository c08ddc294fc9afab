//===- FenceReach.cpp - whether a kernel may execute a fence ----------------===//
#include "analyzer/model/FenceReach.h"

#include "analyzer/model/SyncFunctions.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/AST/ExprCXX.h>

#include <set>
#include <vector>

namespace gpurace::analyzer {

namespace {

// A call in a decltype, sizeof or noexcept operand never runs. libcu++'s
// declval is a variable of function-pointer type, so `declval<T>()` there
// has no direct callee and is not a call through a pointer.
bool isUnevaluatedCall(const clang::CallExpr &call) {
  const auto *ref =
      clang::dyn_cast<clang::DeclRefExpr>(call.getCallee()->IgnoreParenImpCasts());
  return ref && ref->isNonOdrUse() == clang::NOUR_Unevaluated;
}

class FenceFinder : public clang::DynamicRecursiveASTVisitor {
public:
  explicit FenceFinder(const clang::ASTContext &ast) : ast_(ast) {}

  bool search(const clang::FunctionDecl &kernel) {
    pending_.push_back(&kernel);
    while (!pending_.empty() && !found_) {
      const clang::FunctionDecl *next = pending_.back();
      pending_.pop_back();
      if (const clang::Stmt *body = next->getBody())
        TraverseStmt(const_cast<clang::Stmt *>(body));
    }
    return found_;
  }

  bool VisitCallExpr(clang::CallExpr *call) override {
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (!callee) {
      found_ = !call->getType()->isDependentType() && !isUnevaluatedCall(*call);
      return !found_;
    }
    if (auto *member = clang::dyn_cast<clang::CXXMemberCallExpr>(call))
      if (auto atomic = classifyScopedAtomic(*member, ast_);
          atomic && (atomic->acquires || atomic->releases)) {
        found_ = true;
        return false;
      }
    if (auto sync = classifySyncFunction(*callee, groupShapeOfType(callObject(*call)));
        sync && sync->kind == v1::SYNC_KIND_FENCE) {
      found_ = true;
      return false;
    }
    const clang::FunctionDecl *definition = nullptr;
    if (callee->hasBody(definition) && visited_.insert(definition).second)
      pending_.push_back(definition);
    return true;
  }

  // Constructors and destructors of device objects run code too.
  bool VisitCXXConstructExpr(clang::CXXConstructExpr *construct) override {
    const clang::FunctionDecl *definition = nullptr;
    if (construct->getConstructor()->hasBody(definition) &&
        visited_.insert(definition).second)
      pending_.push_back(definition);
    return true;
  }

private:
  const clang::ASTContext &ast_;
  std::vector<const clang::FunctionDecl *> pending_;
  std::set<const clang::FunctionDecl *> visited_;
  bool found_ = false;
};

} // namespace

bool mayFence(const clang::FunctionDecl &kernel, const clang::ASTContext &ast) {
  return FenceFinder(ast).search(kernel);
}

} // namespace gpurace::analyzer
