#include "analyzer/host/HostExpressions.h"

#include "analyzer/model/SourceLocations.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/StmtCXX.h>

#include <algorithm>
#include <string>

namespace gpurace::analyzer {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;

const clang::Stmt *parentStatement(clang::ASTContext &ast, const clang::Stmt &stmt,
                                   bool through_declarations) {
  auto parents = ast.getParents(stmt);
  if (through_declarations && !parents.empty() && parents[0].get<clang::VarDecl>())
    parents = ast.getParents(parents[0]);
  return parents.empty() ? nullptr : parents[0].get<clang::Stmt>();
}

bool statementWithin(clang::ASTContext &ast, const clang::Stmt &outer, const clang::Stmt &inner,
                     bool through_declarations) {
  for (const clang::Stmt *at = &inner; at; at = parentStatement(ast, *at, through_declarations))
    if (at == &outer)
      return true;
  return false;
}

const clang::VarDecl *referencedVar(const clang::Expr *e) {
  e = e->IgnoreParenCasts();
  if (auto *unary = dyn_cast<clang::UnaryOperator>(e))
    if (unary->getOpcode() == clang::UO_AddrOf)
      e = unary->getSubExpr()->IgnoreParenCasts();
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(e))
    return dyn_cast<clang::VarDecl>(ref->getDecl());
  return nullptr;
}

const clang::Expr *structValue(const clang::Expr *e) {
  for (const clang::Expr *before = nullptr; e && before != e;) {
    before = e;
    e = e->IgnoreImplicit()->IgnoreParens();
    if (auto *temp = dyn_cast<clang::MaterializeTemporaryExpr>(e))
      e = temp->getSubExpr();
    if (auto *cast = dyn_cast<clang::CXXFunctionalCastExpr>(e))
      e = cast->getSubExpr();
  }
  return e;
}

const clang::DeclRefExpr *structVariable(const clang::Expr &e) {
  const clang::Expr *value = e.IgnoreImplicit();
  if (auto *copy = dyn_cast<clang::CXXConstructExpr>(value); copy && copy->getNumArgs() == 1)
    value = copy->getArg(0)->IgnoreImplicit();
  auto *ref = dyn_cast<clang::DeclRefExpr>(value->IgnoreParens());
  return ref && isa<clang::VarDecl>(ref->getDecl()) ? ref : nullptr;
}

void collectVars(const clang::Stmt *stmt, std::vector<const clang::VarDecl *> &vars) {
  if (!stmt)
    return;
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(stmt))
    if (auto *var = dyn_cast<clang::VarDecl>(ref->getDecl()))
      if (std::find(vars.begin(), vars.end(), var) == vars.end())
        vars.push_back(var);
  for (const clang::Stmt *child : stmt->children())
    collectVars(child, vars);
}

const clang::RecordDecl *recordOf(const clang::VarDecl &var) {
  clang::QualType type = var.getType().getNonReferenceType();
  if (type->isPointerType())
    type = type->getPointeeType();
  return type->getAsRecordDecl();
}

bool isGlobalVariable(const clang::VarDecl &var) {
  return var.hasGlobalStorage() && !var.isLocalVarDecl();
}

std::string shortSourceText(const clang::Stmt &stmt, const clang::SourceManager &sources) {
  std::string shown = sourceText(stmt.getSourceRange(), sources);
  if (shown.size() > 60)
    shown = shown.substr(0, 57) + "...";
  return shown;
}

bool copiesPointer(const clang::Expr *from, clang::ASTContext &ast) {
  from = from->IgnoreParenCasts();
  // A method or operator of an object (`v.back()`, `v[i]`) hands out a
  // pointer the object already holds.
  bool allocation = isa<clang::CXXNewExpr>(from) ||
                    (isa<clang::CallExpr>(from) &&
                     !isa<clang::CXXMemberCallExpr, clang::CXXOperatorCallExpr>(from));
  return !allocation &&
         !from->isNullPointerConstant(ast, clang::Expr::NPC_ValueDependentIsNotNull);
}

bool allocatesInto(const clang::CallExpr &call, const clang::VarDecl &pointer) {
  const clang::FunctionDecl *callee = call.getDirectCallee();
  if (!callee || call.getNumArgs() < 2 || referencedVar(call.getArg(0)) != &pointer)
    return false;
  std::string name = callee->getNameAsString();
  return name == "cudaMalloc" || name == "cudaMallocManaged" || name == "cudaMallocPitch" ||
         name == "cudaMallocHost" || name == "cudaHostAlloc";
}

namespace {

// Visible functions that only call one that never returns are followed
// this deep.
constexpr int kMaxExitWrapperDepth = 3;

bool neverReturnsAt(const clang::FunctionDecl &callee, int depth) {
  std::string name = callee.getNameAsString();
  if (name == "exit" || name == "abort" || name == "_Exit" || name == "quick_exit" ||
      name == "__assert_fail" || name == "__assert" || name == "__assert_rtn" ||
      callee.isNoReturn())
    return true;
  const clang::FunctionDecl *definition = callee.getDefinition();
  auto *body = definition ? dyn_cast_or_null<clang::CompoundStmt>(definition->getBody()) : nullptr;
  if (!body || depth >= kMaxExitWrapperDepth)
    return false;
  // A statement of the body itself (not inside a branch) that calls it.
  for (const clang::Stmt *stmt : body->body()) {
    if (isa<clang::ReturnStmt>(stmt))
      return false;
    auto *e = dyn_cast<clang::Expr>(stmt);
    auto *call = e ? dyn_cast<clang::CallExpr>(e->IgnoreImplicit()) : nullptr;
    const clang::FunctionDecl *next = call ? call->getDirectCallee() : nullptr;
    if (next && next != &callee && neverReturnsAt(*next, depth + 1))
      return true;
  }
  return false;
}

} // namespace

bool isStdSwap(const clang::CallExpr &call) {
  const clang::FunctionDecl *callee = call.getDirectCallee();
  return callee && callee->getName() == "swap" && callee->isInStdNamespace() &&
         call.getNumArgs() == 2;
}

bool neverReturns(const clang::FunctionDecl &callee) { return neverReturnsAt(callee, 0); }

bool terminates(const clang::Stmt &stmt) {
  if (isa<clang::ReturnStmt, clang::BreakStmt, clang::ContinueStmt, clang::GotoStmt>(stmt))
    return true;
  if (auto *expr = dyn_cast<clang::Expr>(&stmt)) {
    const clang::Expr *e = expr->IgnoreImplicit()->IgnoreParens();
    if (isa<clang::CXXThrowExpr>(e))
      return true;
    if (auto *call = dyn_cast<clang::CallExpr>(e))
      if (const clang::FunctionDecl *callee = call->getDirectCallee())
        return neverReturns(*callee);
    return false;
  }
  if (auto *block = dyn_cast<clang::CompoundStmt>(&stmt)) {
    for (const clang::Stmt *child : block->body())
      if (child && terminates(*child))
        return true;
    return false;
  }
  if (auto *branch = dyn_cast<clang::IfStmt>(&stmt))
    return branch->getElse() && terminates(*branch->getThen()) &&
           terminates(*branch->getElse());
  return false;
}

bool callsTerminator(const clang::Stmt *stmt) {
  if (!stmt)
    return false;
  if (isa<clang::ReturnStmt, clang::CXXThrowExpr>(stmt))
    return true;
  if (auto *call = dyn_cast<clang::CallExpr>(stmt))
    if (const clang::FunctionDecl *callee = call->getDirectCallee())
      if (neverReturns(*callee))
        return true;
  for (const clang::Stmt *child : stmt->children())
    if (callsTerminator(child))
      return true;
  return false;
}

std::optional<int64_t> integerConstant(const clang::Expr &expr, const clang::ASTContext &ast) {
  clang::Expr::EvalResult constant;
  if (expr.isValueDependent() || !expr.EvaluateAsInt(constant, ast))
    return std::nullopt;
  return constant.Val.getInt().getExtValue();
}

std::vector<const clang::ReturnStmt *> returnsIn(const clang::Stmt &body) {
  struct Returns : clang::DynamicRecursiveASTVisitor {
    std::vector<const clang::ReturnStmt *> found;
    bool VisitReturnStmt(clang::ReturnStmt *stmt) override {
      found.push_back(stmt);
      return true;
    }
  } returns;
  returns.TraverseStmt(const_cast<clang::Stmt *>(&body));
  return returns.found;
}

const clang::Expr *assertedCondition(const clang::Stmt *stmt) {
  auto *expr = dyn_cast_or_null<clang::Expr>(stmt);
  if (!expr)
    return nullptr;
  expr = expr->IgnoreParenImpCasts();
  // The condition without assert's own `static_cast<bool>`, so its text is
  // the user's condition rather than the macro.
  if (auto *conditional = dyn_cast<clang::ConditionalOperator>(expr))
    if (callsTerminator(conditional->getFalseExpr()))
      return conditional->getCond()->IgnoreParenCasts();
  if (auto *binary = dyn_cast<clang::BinaryOperator>(expr))
    if (binary->getOpcode() == clang::BO_LOr && callsTerminator(binary->getRHS()))
      return binary->getLHS();
  return nullptr;
}

} // namespace gpurace::analyzer
