//===- HostExpressions.h - small readings of host expressions ---*- C++ -*-===//
//
// Shapes of host code that the host analyses share: the variable an
// expression names, a struct value without its temporaries, the variables
// a statement reads, calls that never return, and the condition an
// `assert` checks.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_HOST_HOSTEXPRESSIONS_H
#define GPURACE_ANALYZER_HOST_HOSTEXPRESSIONS_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class DeclRefExpr;
class Expr;
class FunctionDecl;
class RecordDecl;
class ReturnStmt;
class SourceManager;
class Stmt;
class VarDecl;
} // namespace clang

namespace gpurace::analyzer {

// The statement `stmt` is a part of: its parent, when that is a statement.
// With `through_declarations`, an initializer's parent is the statement
// that declares its variable (`int n = f();`). Nothing at the top.
const clang::Stmt *parentStatement(clang::ASTContext &ast, const clang::Stmt &stmt,
                                   bool through_declarations = false);

// Whether `inner` is `outer` or a part of it, climbing by parentStatement.
bool statementWithin(clang::ASTContext &ast, const clang::Stmt &outer, const clang::Stmt &inner,
                     bool through_declarations = false);

// The variable `e` names, or whose address it takes (`&n`).
const clang::VarDecl *referencedVar(const clang::Expr *e);

// `e` without the temporaries and casts around a struct value
// (`dim3(64)` as an argument, `= dim3(a, b)`).
const clang::Expr *structValue(const clang::Expr *e);

// The reference to the struct variable `e` reads, through the copy a by-value
// argument makes (`launch(params)`), or null when `e` names none.
const clang::DeclRefExpr *structVariable(const clang::Expr &e);

// The variables `stmt` reads, in source order (so that the facts made of
// them come in the same order on every run).
void collectVars(const clang::Stmt *stmt, std::vector<const clang::VarDecl *> &vars);

// The struct a variable holds, refers to or points to.
const clang::RecordDecl *recordOf(const clang::VarDecl &var);

// A variable of static storage outside every function: a global, a
// namespace-scope or static data member.
bool isGlobalVariable(const clang::VarDecl &var);

// The source text of `stmt`, cut to 60 characters for messages.
std::string shortSourceText(const clang::Stmt &stmt, const clang::SourceManager &sources);

// Whether `from`, assigned to a pointer, may point into a buffer another
// pointer already points to (`p = q`, `p = base + n`): neither an
// allocation (a call, a new-expression) nor null.
bool copiesPointer(const clang::Expr *from, clang::ASTContext &ast);

// Whether `call` allocates a device or pinned buffer into `pointer`
// (`cudaMalloc(&pointer, bytes)` and its kin).
bool allocatesInto(const clang::CallExpr &call, const clang::VarDecl &pointer);

// `std::swap(a, b)`: the two variables exchange their values.
bool isStdSwap(const clang::CallExpr &call);

// Whether `stmt` returns, throws or calls a function that does not return.
// Whether control never continues past `stmt`: it returns, breaks,
// continues, jumps or throws on every path.
bool terminates(const clang::Stmt &stmt);
bool callsTerminator(const clang::Stmt *stmt);

// Whether a call of `callee` never returns: exit, abort and their kin, a
// [[noreturn]] function, or a visible function whose body always reaches
// such a call (`void usage() { fprintf(stderr, ...); exit(1); }`).
bool neverReturns(const clang::FunctionDecl &callee);

// The value of an integer constant expression (`true` is 1); nothing
// when `expr` is not one.
std::optional<int64_t> integerConstant(const clang::Expr &expr, const clang::ASTContext &ast);

// The return statements of a function body (those of lambdas inside it
// too), in source order.
std::vector<const clang::ReturnStmt *> returnsIn(const clang::Stmt &body);

// `assert(c)` as glibc expands it (`c ? void(0) : __assert_fail(...)`):
// the condition, as the user wrote it.
const clang::Expr *assertedCondition(const clang::Stmt *stmt);

} // namespace gpurace::analyzer

#endif
