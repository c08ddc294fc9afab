//===- HostCalls.cpp - host values computed in visible callees -----------===//
//
// What a call whose body is visible leaves in a variable handed to it by
// address or reference, returns in a struct or returns as an integer: the
// callee read in a frame of its own, with its parameters bound to the
// call's arguments, up to kMaxCalleeDepth calls deep.
//
//===----------------------------------------------------------------------===//
#include "analyzer/host/HostValues.h"

#include "analyzer/host/HostExpressions.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>

namespace gpurace::analyzer {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;

namespace {

constexpr int kMaxCalleeDepth = 3;
// Ifs with a return inside that one callee's value is followed through.
constexpr int kMaxReturnBranches = 8;

// The callee's parameter that `call` hands `var` to: `&var` to a pointer,
// `var` to a reference.
const clang::ParmVarDecl *outParameter(const clang::CallExpr &call, const clang::FunctionDecl &callee,
                                       const clang::VarDecl &var) {
  for (unsigned i = 0; i < call.getNumArgs() && i < callee.getNumParams(); ++i) {
    const clang::Expr *arg = call.getArg(i)->IgnoreParenCasts();
    const clang::ParmVarDecl *param = callee.getParamDecl(i);
    bool by_address = false;
    if (auto *address = dyn_cast<clang::UnaryOperator>(arg);
        address && address->getOpcode() == clang::UO_AddrOf) {
      arg = address->getSubExpr()->IgnoreParenCasts();
      by_address = true;
    }
    auto *ref = dyn_cast<clang::DeclRefExpr>(arg);
    if (!ref || ref->getDecl() != &var)
      continue;
    if (by_address ? param->getType()->isPointerType()
                   : param->getType()->isLValueReferenceType())
      return param;
  }
  return nullptr;
}

// The constant a return gives back, as an integer (`true` is 1).
std::optional<int64_t> returnedConstant(const clang::ReturnStmt &ret, const clang::ASTContext &ast) {
  const clang::Expr *value = ret.getRetValue();
  return value ? integerConstant(*value, ast) : std::nullopt;
}

// The constants `callee` returns on success and on failure: it ends in
// `return S;` and returns 0 everywhere else (`return false;` on each
// failure, `return true;` last).
std::optional<int64_t> successConstant(const clang::FunctionDecl &callee, const clang::ASTContext &ast) {
  auto *body = dyn_cast_or_null<clang::CompoundStmt>(callee.getBody());
  auto *last = body && !body->body_empty() ? dyn_cast<clang::ReturnStmt>(body->body_back())
                                           : nullptr;
  std::optional<int64_t> success = last ? returnedConstant(*last, ast) : std::nullopt;
  if (!success || *success == 0)
    return std::nullopt;
  for (const clang::ReturnStmt *ret : returnsIn(*body))
    if (ret != last && returnedConstant(*ret, ast) != std::optional<int64_t>(0))
      return std::nullopt;
  return success;
}

// What a caller's test reads of a call's result: the call itself, or the
// variable it initializes.
struct ResultSubject {
  const clang::CallExpr *call = nullptr;
  const clang::VarDecl *var = nullptr;

  bool is(const clang::Expr &expr) const {
    const clang::Expr *bare = expr.IgnoreParenImpCasts();
    if (auto *ref = dyn_cast<clang::DeclRefExpr>(bare))
      return var && ref->getDecl() == var;
    return bare == call;
  }
};

// A comparison of `subject` with the failure value 0 or the success value
// S (`s == 0`, `S != s`): whether it holds exactly where the call failed
// (true) or exactly where it succeeded (false); nothing for another test.
std::optional<bool> holdsOnFailure(const clang::BinaryOperator &binary,
                                   const ResultSubject &subject, int64_t success,
                                   const clang::ASTContext &ast) {
  if (!binary.isEqualityOp())
    return std::nullopt;
  const clang::Expr *other = nullptr;
  if (subject.is(*binary.getLHS()))
    other = binary.getRHS();
  else if (subject.is(*binary.getRHS()))
    other = binary.getLHS();
  std::optional<int64_t> constant = other ? integerConstant(*other, ast) : std::nullopt;
  if (!constant || (*constant != 0 && *constant != success))
    return std::nullopt;
  bool equals_failure = *constant == 0;
  return binary.getOpcode() == clang::BO_EQ ? equals_failure : !equals_failure;
}

// Whether `test` holds exactly where `subject` holds the failure value 0:
// `!s`, `s == 0`, `s == false`, `s != S` (S the success value), either
// way round, or a disjunct of such a test (`!a(...) || !b(...)`).
bool testsFailure(const clang::Expr &test, const ResultSubject &subject, int64_t success,
                  const clang::ASTContext &ast) {
  const clang::Expr *bare = test.IgnoreParenImpCasts();
  if (auto *unary = dyn_cast<clang::UnaryOperator>(bare))
    return unary->getOpcode() == clang::UO_LNot && subject.is(*unary->getSubExpr());
  auto *binary = dyn_cast<clang::BinaryOperator>(bare);
  if (!binary)
    return false;
  if (binary->getOpcode() == clang::BO_LOr)
    return testsFailure(*binary->getLHS(), subject, success, ast) ||
           testsFailure(*binary->getRHS(), subject, success, ast);
  return holdsOnFailure(*binary, subject, success, ast) == std::optional<bool>(true);
}

// Whether `test` holds only where `subject` succeeded: `s`, `s != 0`,
// `s == S`, either way round, the negation of a failure test, or a
// conjunct of such a test (`a(...) && b(...)`).
bool testsSuccess(const clang::Expr &test, const ResultSubject &subject, int64_t success,
                  const clang::ASTContext &ast) {
  if (subject.is(test))
    return true;
  const clang::Expr *bare = test.IgnoreParenImpCasts();
  if (auto *unary = dyn_cast<clang::UnaryOperator>(bare))
    return unary->getOpcode() == clang::UO_LNot &&
           testsFailure(*unary->getSubExpr(), subject, success, ast);
  auto *binary = dyn_cast<clang::BinaryOperator>(bare);
  if (!binary)
    return false;
  if (binary->getOpcode() == clang::BO_LAnd)
    return testsSuccess(*binary->getLHS(), subject, success, ast) ||
           testsSuccess(*binary->getRHS(), subject, success, ast);
  return holdsOnFailure(*binary, subject, success, ast) == std::optional<bool>(false);
}

// Whether `branch` runs `read` only where `subject` succeeded: its
// then-branch under a success test (`if (load(...)) { launch }`), its
// else-branch under a failure test.
bool readOnlyOnSuccess(const clang::IfStmt *branch, const clang::Stmt *read,
                       const ResultSubject &subject, int64_t success, clang::ASTContext &ast) {
  if (!branch || !read || branch->getConditionVariable())
    return false;
  const clang::Expr &test = *branch->getCond();
  return (statementWithin(ast, *branch->getThen(), *read, true) &&
          testsSuccess(test, subject, success, ast)) ||
         (branch->getElse() && statementWithin(ast, *branch->getElse(), *read, true) &&
          testsFailure(test, subject, success, ast));
}

// Whether `branch` stops the caller where `subject` failed: the test of
// its condition, a then-branch that terminates.
bool stopsWhereFailed(const clang::IfStmt *branch, const ResultSubject &subject, int64_t success,
                      const clang::ASTContext &ast) {
  return branch && !branch->getConditionVariable() &&
         testsFailure(*branch->getCond(), subject, success, ast) && terminates(*branch->getThen());
}

// The if that tests `call`'s result where the caller reads it: `call` is
// part of the if's condition, or initializes a variable that the statement
// right after the declaration tests (`bool ok = load(...); if (!ok) ...`).
const clang::IfStmt *testOfResult(const clang::CallExpr &call, ResultSubject &subject,
                                  clang::ASTContext &ast) {
  subject.call = &call;
  const clang::Stmt *outermost = &call; // the outermost expression around the call
  const clang::Stmt *parent = parentStatement(ast, call);
  for (; parent && isa<clang::Expr>(parent); parent = parentStatement(ast, *parent))
    outermost = parent;
  if (parent) {
    auto *branch = dyn_cast<clang::IfStmt>(parent);
    return branch && branch->getCond() == outermost ? branch : nullptr;
  }
  auto *decl = dyn_cast_or_null<clang::DeclStmt>(parentStatement(ast, *outermost, true));
  auto *var = decl && decl->isSingleDecl() ? dyn_cast<clang::VarDecl>(decl->getSingleDecl())
                                           : nullptr;
  if (!var || !var->getType()->isScalarType() || var->getInit()->IgnoreParenImpCasts() != &call)
    return nullptr;
  auto *block = dyn_cast_or_null<clang::CompoundStmt>(parentStatement(ast, *decl));
  if (!block)
    return nullptr;
  const auto *at = std::find(block->body_begin(), block->body_end(), decl);
  if (at == block->body_end() || at + 1 == block->body_end())
    return nullptr;
  subject.var = var;
  return dyn_cast<clang::IfStmt>(*(at + 1));
}

// Whether the caller goes on only where `callee` succeeded, so that what
// reaches the callee's last statement is what the caller sees: `callee`
// returns 0 on every failure and another constant last, and the caller's
// test of the result stops it on failure (`if (!load(...)) exit(1);`,
// `if (load(...) != true) { ...; return 1; }`, `bool ok = load(...);
// if (ok == false) return;`), or reads the values (at `read`) only in the
// branch its test takes on success (`if (load(...)) { launch }`).
bool callerGoesOnOnlyOnSuccess(const clang::CallExpr &call, const clang::FunctionDecl &callee,
                               const clang::Stmt *read, clang::ASTContext &ast) {
  std::optional<int64_t> success = successConstant(callee, ast);
  if (!success)
    return false;
  ResultSubject subject;
  const clang::IfStmt *branch = testOfResult(call, subject, ast);
  return stopsWhereFailed(branch, subject, *success, ast) ||
         readOnlyOnSuccess(branch, read, subject, *success, ast);
}

} // namespace

std::unique_ptr<HostValues> HostValues::calleeFrame(const clang::CallExpr &call,
                                                    std::unique_ptr<HostValues> &sibling) {
  const clang::FunctionDecl *callee = call.getDirectCallee();
  const clang::FunctionDecl *body = callee ? callee->getDefinition() : nullptr;
  if (!body || !body->hasBody() || callee_depth_ >= kMaxCalleeDepth || !host_)
    return nullptr;
  sibling = std::make_unique<HostValues>(ast_, symbols_, host_, &call, caller_);
  sibling->unknowns_ = unknowns_;
  sibling->following_families_ = following_families_;
  sibling->induction_values_ = induction_values_;
  sibling->element_writes_ = element_writes_;
  sibling->invariants_ = invariants_;
  sibling->callee_depth_ = callee_depth_;
  auto frame = std::make_unique<HostValues>(ast_, symbols_, body, nullptr, sibling.get());
  frame->callee_depth_ = callee_depth_ + 1;
  return frame;
}

void HostValues::adoptValueFacts(HostValues &frame, HostValues &sibling) {
  for (HostValues *from : {&sibling, &frame})
    for (Fact &fact : from->value_facts_)
      value_facts_.push_back(std::move(fact));
}

z3::expr HostValues::passedOutValue(const Definition &definition, const clang::VarDecl &var,
                                    const std::string &field) {
  const auto &call = *clang::cast<clang::CallExpr>(definition.value);
  if (std::optional<z3::expr> chosen = cudaOutValue(call, var, field))
    return *chosen;
  std::string callee_name = call.getDirectCallee()->getNameAsString();
  std::unique_ptr<HostValues> sibling;
  std::unique_ptr<HostValues> frame = calleeFrame(call, sibling);
  const clang::ParmVarDecl *param =
      frame ? outParameter(call, *frame->host_, var) : nullptr;
  std::vector<Definition> at_exit;
  if (param)
    at_exit = frame->environment_.reachingExit(
        *param, field, param->getType()->isPointerType(),
        callerGoesOnOnlyOnSuccess(call, *frame->host_, launch_, ast_));
  if (at_exit.empty())
    return unknownSymbolOf(var, field,
                           "passed by address or reference to '" + callee_name + "'",
                           definition.at);
  frame->entry_param_ = param;
  frame->entry_value_ = definition.before.empty() ? symbolOf(var, field)
                                                  : combine(definition.before, var, field);
  z3::expr out = frame->combine(at_exit, *param, field);
  adoptValueFacts(*frame, *sibling);
  return followedInto(out, var, field, callee_name, "leaves in it", *definition.at);
}

std::optional<z3::expr> HostValues::returnedField(const clang::CallExpr &call,
                                                  const clang::VarDecl &var,
                                                  const std::string &field) {
  std::unique_ptr<HostValues> sibling;
  std::unique_ptr<HostValues> frame = calleeFrame(call, sibling);
  auto *body = frame ? dyn_cast<clang::CompoundStmt>(frame->host_->getBody()) : nullptr;
  auto *last = body && !body->body_empty() ? dyn_cast<clang::ReturnStmt>(body->body_back())
                                           : nullptr;
  if (!last || !last->getRetValue())
    return std::nullopt;
  // One return, the last statement: its struct, read in the callee.
  if (returnsIn(*body).size() != 1)
    return std::nullopt;
  z3::expr out = frame->fieldOfStruct(*last->getRetValue(), var, field);
  adoptValueFacts(*frame, *sibling);
  return followedInto(out, var, field, call.getDirectCallee()->getNameAsString(),
                      "returns in it", call);
}

z3::expr HostValues::followedInto(const z3::expr &value, const clang::VarDecl &var,
                                  const std::string &field, const std::string &callee,
                                  const std::string &how, const clang::Stmt &at) {
  std::string name = var.getNameAsString() + (field.empty() ? std::string() : "." + field);
  return stated("host:from-call:" + name + "@" + placeKey(at.getBeginLoc()),
                value, "host '" + name + "' is what '" + callee + "' " + how + " (its body followed)",
                &at);
}

namespace {

bool containsReturn(const clang::Stmt &stmt) {
  if (isa<clang::ReturnStmt>(stmt))
    return true;
  for (const clang::Stmt *child : stmt.children())
    if (child && !isa<clang::LambdaExpr>(child) && containsReturn(*child))
      return true;
  return false;
}

// `exit(1);`, `throw ...;`, `abort();` as a statement of its own.
bool neverContinues(const clang::Stmt &stmt) {
  auto *expr = dyn_cast<clang::Expr>(&stmt);
  const clang::Expr *e = expr ? expr->IgnoreImplicit()->IgnoreParens() : nullptr;
  return e && isa<clang::CallExpr, clang::CXXThrowExpr>(e) && callsTerminator(e);
}

bool isMinOrMax(const clang::FunctionDecl &callee) {
  std::string name = callee.getNameAsString();
  return name == "min" || name == "max";
}

} // namespace

std::optional<z3::expr> HostValues::returnedValue(const clang::CallExpr &call) {
  auto cached = returned_values_.find(&call);
  if (cached != returned_values_.end())
    return cached->second;
  const clang::FunctionDecl *callee = call.getDirectCallee();
  if (!callee || isa<clang::CXXMemberCallExpr, clang::CXXOperatorCallExpr>(call) ||
      !call.getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  std::optional<z3::expr> out;
  if (isMinOrMax(*callee) && call.getNumArgs() == 2) {
    // The host `min`/`max` of CUDA's headers and std::min/std::max.
    auto a = value(call.getArg(0)), b = value(call.getArg(1));
    if (!a || !b)
      return std::nullopt;
    z3::expr less = arith_.less(*a, *b, call.getType()->isSignedIntegerOrEnumerationType());
    out = callee->getName() == "min" ? z3::ite(less, *a, *b) : z3::ite(less, *b, *a);
  } else {
    const clang::FunctionDecl *definition = callee->getDefinition();
    if (!definition ||
        ast_.getSourceManager().isInSystemHeader(definition->getLocation()))
      return std::nullopt;
    std::unique_ptr<HostValues> sibling;
    std::unique_ptr<HostValues> frame = calleeFrame(call, sibling);
    if (!frame || !frame->host_->getBody())
      return std::nullopt;
    int branches = kMaxReturnBranches;
    Returned returned = frame->returnedBy({frame->host_->getBody()}, branches);
    if (!returned.value)
      return std::nullopt;
    adoptValueFacts(*frame, *sibling);
    std::string name = callee->getNameAsString();
    out = stated("host:returned:" + name + "@" + placeKey(call.getBeginLoc()),
                 *returned.value,
                 "host '" + shortSourceText(call, ast_.getSourceManager()) + "' is what '" + name +
                     "' returns (its body followed)",
                 &call);
  }
  returned_values_.emplace(&call, *out);
  return out;
}

HostValues::Returned HostValues::returnedBy(std::vector<const clang::Stmt *> path, int &branches) {
  for (size_t i = 0; i < path.size(); ++i) {
    const clang::Stmt *stmt = path[i];
    if (!stmt)
      continue;
    auto then = [&](std::vector<const clang::Stmt *> first) {
      first.insert(first.end(), path.begin() + i + 1, path.end());
      return first;
    };
    if (auto *block = dyn_cast<clang::CompoundStmt>(stmt))
      return returnedBy(then({block->body_begin(), block->body_end()}), branches);
    if (auto *ret = dyn_cast<clang::ReturnStmt>(stmt))
      return {false, ret->getRetValue() ? value(ret->getRetValue()) : std::nullopt};
    if (neverContinues(*stmt))
      return {true, std::nullopt};
    if (!containsReturn(*stmt))
      continue; // its writes are what the returns read through their definitions
    auto *branch = dyn_cast<clang::IfStmt>(stmt);
    if (!branch || branch->getInit() || branch->getConditionVariable() || --branches < 0)
      return {};
    std::optional<z3::expr> condition = value(branch->getCond());
    if (!condition)
      return {};
    Returned taken = returnedBy(then({branch->getThen()}), branches);
    Returned other = returnedBy(then({branch->getElse()}), branches);
    if (taken.never)
      return other;
    if (other.never)
      return taken;
    if (!taken.value || !other.value)
      return {};
    return {false, z3::ite(arith_.toBool(*condition), *taken.value, *other.value)};
  }
  return {}; // the end of a function that returns a value
}

} // namespace gpurace::analyzer
