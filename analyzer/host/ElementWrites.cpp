#include "analyzer/host/ElementWrites.h"

#include "analyzer/host/HostExpressions.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <llvm/ADT/FoldingSet.h>

#include <optional>

namespace gpurace::analyzer {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;

namespace {

// `a[i] = v` with `a` a local array, or local pointer, of integers.
struct ElementStore {
  const clang::VarDecl *array;
  const clang::Expr *index;
  const clang::BinaryOperator *store;
};

std::optional<ElementStore> elementStore(const clang::Stmt *stmt) {
  auto *assign = dyn_cast_or_null<clang::BinaryOperator>(stmt);
  if (!assign || assign->getOpcode() != clang::BO_Assign)
    return std::nullopt;
  auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(assign->getLHS()->IgnoreParens());
  const clang::VarDecl *array = subscript ? ElementWrites::arrayOf(*subscript) : nullptr;
  if (!array)
    return std::nullopt;
  return ElementStore{array, subscript->getIdx(), assign};
}

ElementWrites::Store storeOf(const ElementStore &store, const clang::ASTContext &ast) {
  return {store.store->getRHS(), integerConstant(*store.index, ast), store.store};
}

bool sameIndex(const clang::Expr &a, const clang::Expr &b, const clang::ASTContext &ast) {
  llvm::FoldingSetNodeID first, second;
  a.Profile(first, ast, /*Canonical=*/true);
  b.Profile(second, ast, /*Canonical=*/true);
  return first == second;
}

void referencedVariables(const clang::Stmt &stmt, std::set<const clang::VarDecl *> &out) {
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(&stmt))
    if (auto *var = dyn_cast<clang::VarDecl>(ref->getDecl()))
      out.insert(var);
  for (const clang::Stmt *child : stmt.children())
    if (child)
      referencedVariables(*child, out);
}

// Whether `stmt` may change one of `vars`: every reference to them in it
// must be a read of its value (under an lvalue-to-rvalue conversion).
bool mayChange(const clang::Stmt &stmt, const std::set<const clang::VarDecl *> &vars,
               bool read = false) {
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(&stmt))
    return !read && vars.count(dyn_cast<clang::VarDecl>(ref->getDecl())) > 0;
  auto *cast = dyn_cast<clang::ImplicitCastExpr>(&stmt);
  bool reads = cast && cast->getCastKind() == clang::CK_LValueToRValue;
  for (const clang::Stmt *child : stmt.children())
    if (child && mayChange(*child, vars, reads))
      return true;
  return false;
}

bool isLoop(const clang::Stmt &stmt) {
  return isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CXXForRangeStmt>(stmt);
}

// Whether the groups hold what `var` starts with: nothing (`new int[n]`,
// `malloc(...)`, an array with no initializer) or its initializer list.
bool startTracked(const clang::VarDecl &var) {
  const clang::Expr *init = var.getInit();
  if (!init)
    return true;
  init = init->IgnoreParenImpCasts();
  if (isa<clang::InitListExpr>(init))
    return true;
  if (auto *allocation = dyn_cast<clang::CXXNewExpr>(init))
    return allocation->isArray() && !allocation->hasInitializer();
  if (auto *call = dyn_cast<clang::CallExpr>(init))
    if (const clang::FunctionDecl *callee = call->getDirectCallee())
      return callee->getName() == "malloc";
  return false;
}

bool freesArray(const clang::Stmt &use) {
  if (isa<clang::CXXDeleteExpr>(use))
    return true;
  auto *call = dyn_cast<clang::CallExpr>(&use);
  const clang::FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  return callee && callee->getName() == "free";
}

} // namespace

const clang::VarDecl *ElementWrites::arrayOf(const clang::ArraySubscriptExpr &subscript) {
  auto *ref = dyn_cast<clang::DeclRefExpr>(subscript.getBase()->IgnoreParenImpCasts());
  auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (!var || !var->isLocalVarDecl() || var->isStaticLocal() ||
      !subscript.getType()->isIntegralOrEnumerationType())
    return nullptr;
  return var;
}

ElementWrites::ElementWrites(clang::ASTContext &ast, const clang::FunctionDecl *function)
    : ast_(ast) {
  const clang::Stmt *body = function ? function->getBody() : nullptr;
  if (!body)
    return;
  collectGroups(*body, false);
  std::vector<const clang::Stmt *> ancestors;
  dropEscapingArrays(*body, ancestors);
  joinFamilies();
}

void ElementWrites::closeGroup(Group &open) {
  if (open.stores.empty())
    return;
  groups_.push_back(std::move(open));
  open = Group{};
  const Group &group = groups_.back();
  for (const auto &[array, store] : group.stores) {
    if (store.assignment)
      grouped_.insert(store.assignment);
    if (!by_array_.count(array))
      arrays_.push_back(array);
    by_array_[array].push_back(&group);
  }
}

void ElementWrites::collectInitializers(const clang::DeclStmt &decl, bool in_loop) {
  for (const clang::Decl *d : decl.decls()) {
    auto *var = dyn_cast<clang::VarDecl>(d);
    const clang::ConstantArrayType *type =
        var && var->isLocalVarDecl() && !var->isStaticLocal()
            ? ast_.getAsConstantArrayType(var->getType())
            : nullptr;
    auto *list = var && var->getInit()
                     ? dyn_cast<clang::InitListExpr>(var->getInit()->IgnoreParenImpCasts())
                     : nullptr;
    if (!type || !list || !type->getElementType()->isIntegralOrEnumerationType())
      continue;
    // Entries past the list are zeros, left unknown here.
    for (unsigned i = 0; i < list->getNumInits(); ++i) {
      Group entry;
      entry.in_loop = in_loop;
      entry.stores[var] = Store{list->getInit(i), static_cast<int64_t>(i), nullptr};
      closeGroup(entry);
    }
  }
}

void ElementWrites::collectGroups(const clang::Stmt &stmt, bool in_loop) {
  if (isa<clang::LambdaExpr>(stmt))
    return;
  if (auto *decl = dyn_cast<clang::DeclStmt>(&stmt)) {
    collectInitializers(*decl, in_loop);
    return;
  }
  auto *block = dyn_cast<clang::CompoundStmt>(&stmt);
  if (!block) {
    if (std::optional<ElementStore> store = elementStore(&stmt)) {
      Group alone;
      alone.in_loop = in_loop;
      alone.stores[store->array] = storeOf(*store, ast_);
      closeGroup(alone);
      return;
    }
    for (const clang::Stmt *child : stmt.children())
      if (child)
        collectGroups(*child, in_loop || isLoop(stmt));
    return;
  }
  Group open;
  open.in_loop = in_loop;
  const clang::Expr *open_index = nullptr;
  std::set<const clang::VarDecl *> index_vars;
  for (const clang::Stmt *child : block->body()) {
    std::optional<ElementStore> store = elementStore(child);
    bool joins = store && open_index && sameIndex(*open_index, *store->index, ast_) &&
                 !open.stores.count(store->array);
    if (!joins) {
      closeGroup(open);
      open.in_loop = in_loop;
      open_index = nullptr;
    }
    if (!store) {
      collectGroups(*child, in_loop);
      continue;
    }
    if (!open_index) {
      open_index = store->index;
      index_vars.clear();
      referencedVariables(*open_index, index_vars);
    }
    open.stores[store->array] = storeOf(*store, ast_);
    // A store that may change the index ends the group after it.
    if (mayChange(*store->store, index_vars)) {
      closeGroup(open);
      open.in_loop = in_loop;
      open_index = nullptr;
    }
  }
  closeGroup(open);
}

namespace {

// `for (int v : a)` (or `const int &v`) only reads the elements of `a`:
// its range statement binds `a` to a reference the loop reads through.
bool readsByRange(const clang::Stmt *loop, const clang::Stmt *user) {
  auto *range = dyn_cast_or_null<clang::CXXForRangeStmt>(loop);
  if (!range || !user || range->getRangeStmt() != user || !range->getLoopVariable())
    return false;
  clang::QualType type = range->getLoopVariable()->getType();
  return !type->isReferenceType() || type.getNonReferenceType().isConstQualified();
}

} // namespace

void ElementWrites::dropEscapingArrays(const clang::Stmt &stmt,
                                       std::vector<const clang::Stmt *> &ancestors) {
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(&stmt)) {
    auto *var = dyn_cast<clang::VarDecl>(ref->getDecl());
    if (!var || !by_array_.count(var))
      return;
    // The array, decayed or read as a pointer, as the base of `a[i]`.
    size_t up = ancestors.size();
    auto parent = [&](size_t k) { return k <= up && k > 0 ? ancestors[up - k] : nullptr; };
    size_t k = 1;
    while (llvm::isa_and_nonnull<clang::ImplicitCastExpr, clang::ParenExpr>(parent(k)))
      ++k;
    const clang::Stmt *user = parent(k);
    auto *subscript = dyn_cast_or_null<clang::ArraySubscriptExpr>(user);
    bool as_base = subscript && subscript->getBase()->IgnoreParenImpCasts() == ref;
    if (as_base) {
      const clang::Stmt *outer = parent(k + 1);
      auto *cast = dyn_cast_or_null<clang::ImplicitCastExpr>(outer);
      bool read = cast && cast->getCastKind() == clang::CK_LValueToRValue;
      auto *store = dyn_cast_or_null<clang::BinaryOperator>(outer);
      bool stored = store && grouped_.count(store) && store->getLHS()->IgnoreParens() == subscript;
      if (read || stored)
        return;
    } else if (user && freesArray(*user)) {
      return;
    } else if (readsByRange(parent(k + 1), user)) {
      return;
    }
    escaping_.insert(var);
    return;
  }
  ancestors.push_back(&stmt);
  for (const clang::Stmt *child : stmt.children())
    if (child)
      dropEscapingArrays(*child, ancestors);
  ancestors.pop_back();
}

void ElementWrites::joinFamilies() {
  std::vector<const clang::VarDecl *> kept;
  for (const clang::VarDecl *array : arrays_) {
    if (escaping_.count(array) || !startTracked(*array))
      by_array_.erase(array);
    else
      kept.push_back(array);
  }
  arrays_ = kept;
  for (const clang::VarDecl *array : arrays_)
    for (const clang::VarDecl *first : arrays_)
      if (by_array_[first] == by_array_[array]) {
        family_[array] = first;
        break;
      }
}

const std::vector<const ElementWrites::Group *> *
ElementWrites::groupsOf(const clang::VarDecl &array) const {
  auto found = by_array_.find(&array);
  return found == by_array_.end() ? nullptr : &found->second;
}

const clang::VarDecl *ElementWrites::familyOf(const clang::VarDecl &array) const {
  auto found = family_.find(&array);
  return found == family_.end() ? nullptr : found->second;
}

} // namespace gpurace::analyzer
