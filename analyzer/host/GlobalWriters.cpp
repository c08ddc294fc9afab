#include "analyzer/host/GlobalWriters.h"

#include "analyzer/host/HostExpressions.h"
#include "analyzer/host/ReachingDefinitions.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <optional>

namespace gpurace::analyzer {

namespace {

class WriterFinder : public clang::DynamicRecursiveASTVisitor {
public:
  WriterFinder(clang::ASTContext &ast,
               std::map<const clang::VarDecl *, std::set<const clang::FunctionDecl *>> &writers,
               std::set<const clang::VarDecl *> &copied, GlobalWriters::FieldCopies &field_copies)
      : ast_(ast), writers_(writers), copied_(copied), field_copies_(field_copies) {}

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
    if (isGlobalStruct(*var) && var->getInit() && initializerMayCopy(*var->getInit()))
      copied_.insert(var->getCanonicalDecl());
    return true;
  }

  // The pointer fields of a global struct are buffers of their own only
  // while every write names the field (`g.x = p` is checked as a global
  // pointer is). Uses that cannot set a field are marked here, before the
  // traversal reaches the reference itself: a field named (`g.x`,
  // `g[i].x`), a const method, a read or copy of the whole value. Any
  // other use (`g = other`, `&g`, a non-const reference or method) may
  // bring pointers from elsewhere.
  bool VisitMemberExpr(clang::MemberExpr *member) override {
    auto *method = clang::dyn_cast<clang::CXXMethodDecl>(member->getMemberDecl());
    if (!member->isArrow() && (!method || method->isConst()))
      harmlessUse(member->getBase());
    return true;
  }

  bool VisitImplicitCastExpr(clang::ImplicitCastExpr *cast) override {
    if (cast->getCastKind() == clang::CK_LValueToRValue)
      harmlessUse(cast->getSubExpr());
    return true;
  }

  bool VisitCXXConstructExpr(clang::CXXConstructExpr *construct) override {
    if (construct->getNumArgs() == 1 && construct->getConstructor()->isCopyOrMoveConstructor())
      harmlessUse(construct->getArg(0));
    return true;
  }

  bool VisitUnaryExprOrTypeTraitExpr(clang::UnaryExprOrTypeTraitExpr *query) override {
    if (!query->isArgumentType())
      harmlessUse(query->getArgumentExpr()); // sizeof(g)
    return true;
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr *ref) override {
    auto *var = clang::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var && isGlobalStruct(*var) && !harmless_.count(ref))
      copied_.insert(var->getCanonicalDecl());
    return true;
  }

  bool VisitBinaryOperator(clang::BinaryOperator *op) override {
    if (op->getOpcode() == clang::BO_Assign && op->getLHS()->getType()->isPointerType() &&
        copiesPointer(op->getRHS(), ast_)) {
      if (std::optional<GlobalWriters::Field> field = globalFieldIn(op->getLHS()))
        field_copies_[*field].push_back(op->getRHS());
      else if (const clang::VarDecl *var = globalIn(op->getLHS()))
        copied_.insert(var);
    }
    return true;
  }

private:
  static bool isGlobalStruct(const clang::VarDecl &var) {
    const clang::Type *type = var.getType()->getBaseElementTypeUnsafe();
    return isGlobalVariable(var) && type->isRecordType();
  }

  // A file-scope initializer that may put another pointer in a field: a
  // pointer entry that is not an allocation or null, or a constructor of
  // the program's own.
  bool initializerMayCopy(const clang::Expr &init) const {
    const clang::Expr *e = init.IgnoreImplicit();
    if (auto *construct = clang::dyn_cast<clang::CXXConstructExpr>(e))
      return !construct->getConstructor()->isTrivial();
    auto *entries = clang::dyn_cast<clang::InitListExpr>(e);
    if (!entries)
      return true;
    for (const clang::Expr *entry : entries->inits())
      if (entry->getType()->isRecordType() || entry->getType()->isArrayType()
              ? initializerMayCopy(*entry)
              : entry->getType()->isPointerType() && copiesPointer(entry, ast_))
        return true;
    return false;
  }

  void harmlessUse(const clang::Expr *e) {
    e = e->IgnoreParenNoopCasts(ast_);
    if (auto *element = clang::dyn_cast<clang::ArraySubscriptExpr>(e)) // `g[i].x`
      e = element->getBase()->IgnoreParenImpCasts();
    if (auto *ref = clang::dyn_cast<clang::DeclRefExpr>(e))
      harmless_.insert(ref);
  }

  // The pointer field of a global struct an lvalue names: `g.x`, `g[i].x`.
  static std::optional<GlobalWriters::Field> globalFieldIn(const clang::Expr *e) {
    auto *member = clang::dyn_cast<clang::MemberExpr>(e->IgnoreParenCasts());
    auto *field = member ? clang::dyn_cast<clang::FieldDecl>(member->getMemberDecl()) : nullptr;
    if (!field || member->isArrow())
      return std::nullopt;
    const clang::Expr *base = member->getBase()->IgnoreParenImpCasts();
    if (auto *element = clang::dyn_cast<clang::ArraySubscriptExpr>(base))
      base = element->getBase()->IgnoreParenImpCasts();
    auto *ref = clang::dyn_cast<clang::DeclRefExpr>(base);
    auto *var = ref ? clang::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    if (!var || !isGlobalStruct(*var))
      return std::nullopt;
    return GlobalWriters::Field{var->getCanonicalDecl(), field};
  }

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
  GlobalWriters::FieldCopies &field_copies_;
  std::set<const clang::DeclRefExpr *> harmless_;
  int function_depth_ = 0;
};

} // namespace

GlobalWriters::GlobalWriters(clang::ASTContext &ast) {
  WriterFinder finder(ast, writers_, copied_, field_copies_);
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

const std::vector<const clang::Expr *> &
GlobalWriters::copiesInto(const clang::VarDecl &var, const clang::FieldDecl &field) const {
  static const std::vector<const clang::Expr *> none;
  auto found = field_copies_.find({var.getCanonicalDecl(), &field});
  return found == field_copies_.end() ? none : found->second;
}

} // namespace gpurace::analyzer
