//===- BuilderConstantLoops.cpp - loops that run a known number of times -===//
//
// A loop whose condition reads only constants and variables that start
// from constants and that the loop steps or scales by constants (`for (d =
// N / 2; d > 0; d >>= 1)`, N a template argument or a macro) runs the same
// number of iterations in every thread, and each of those variables holds a
// known value in each iteration. The model states them for the loop's own
// iteration symbol: in a scan's down-sweep that halves `offset` from N
// while `d` doubles, `offset` is exactly N / 2^(k+1) in iteration k, which
// no relation between the two scaled variables gives. After the loop, its
// trip count and the values it leaves are those constants.
//
// A short straight-line loop that fills a register array (`for (c = 0; c <
// 4; ++c) bins[c] = s[c];`, mostly under `#pragma unroll`) is run
// iteration by iteration instead, as the compiler unrolls it: each element
// it writes keeps its own value, where one symbolic iteration would lose
// them all.
//
//===----------------------------------------------------------------------===//
#include "analyzer/model/ModelBuilder.h"

#include <clang/AST/Decl.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>

#include <limits>

namespace gpurace::analyzer::builder {

using clang::dyn_cast;
using clang::isa;

namespace {

// Loops are followed this many iterations at most: a loop over the bits of
// a 64-bit word fits.
constexpr int64_t kMaxConstantTrips = 64;

// Whether `value` is a value of `type`.
bool fits(int64_t value, IntType type) {
  if (type.width >= 64)
    return type.is_signed || value >= 0;
  int64_t span = int64_t(1) << type.width;
  return type.is_signed ? value >= -span / 2 && value < span / 2 : value >= 0 && value < span;
}

// The next iteration's value of a variable scaled by `step`, if it is one
// of `type`.
std::optional<int64_t> scaledOnce(int64_t value, const ScalingStep &step, IntType type) {
  if (!step.grows)
    return value / step.factor;
  if (value > std::numeric_limits<int64_t>::max() / step.factor ||
      value < std::numeric_limits<int64_t>::min() / step.factor)
    return std::nullopt;
  int64_t next = value * step.factor;
  return fits(next, type) ? std::optional<int64_t>(next) : std::nullopt;
}

// Loops of at most this many iterations over registers are unrolled.
constexpr int64_t kMaxUnrolledTrips = 16;

// Whether statements are straight-line code over the thread's own
// variables only (no memory, no call, no jump, no branch: unrolled, a
// branch would nest each iteration's values in the next one's), which
// references they go through (they must be bound to the thread's
// variables too), and whether they store to an element of an array.
struct RegistersOnly : clang::DynamicRecursiveASTVisitor {
  explicit RegistersOnly(clang::ASTContext &ast) : ast(ast) {}
  clang::ASTContext &ast;
  bool only = true;
  bool fills_array = false;
  std::vector<const clang::VarDecl *> references;

  bool refuse() {
    only = false;
    return false;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *ref) override {
    auto *var = dyn_cast<clang::VarDecl>(ref->getDecl());
    if (!var)
      return true; // enumerators, functions named in casts
    if (var->getType()->isReferenceType())
      references.push_back(var);
    else if (!var->hasLocalStorage() && !var->isUsableInConstantExpressions(ast))
      return refuse();
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *op) override {
    return op->getOpcode() == clang::UO_Deref ? refuse() : true;
  }
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *subscript) override {
    return subscript->getBase()->IgnoreParenImpCasts()->getType()->isArrayType() ? true
                                                                                  : refuse();
  }
  bool VisitMemberExpr(clang::MemberExpr *member) override {
    return member->isArrow() ? refuse() : true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *op) override {
    if (op->isLogicalOp())
      return refuse();
    if (op->isAssignmentOp())
      if (auto *element = dyn_cast<clang::ArraySubscriptExpr>(op->getLHS()->IgnoreParens()))
        fills_array |= element->getBase()->IgnoreParenImpCasts()->getType()->isArrayType();
    return true;
  }
  // Branches, jumps, nested loops, calls and assembly.
  bool VisitStmt(clang::Stmt *stmt) override {
    return isa<clang::IfStmt, clang::AbstractConditionalOperator, clang::SwitchStmt,
               clang::BreakStmt, clang::ContinueStmt, clang::ReturnStmt, clang::GotoStmt,
               clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CallExpr,
               clang::CXXConstructExpr, clang::CXXThisExpr, clang::AsmStmt>(stmt)
               ? refuse()
               : true;
  }
};

} // namespace

bool Builder::unrollRegisterLoop(const clang::ForStmt &loop) {
  RegistersOnly check(ast_);
  const clang::Stmt *parts[] = {loop.getInit(), loop.getCond(), loop.getInc(), loop.getBody()};
  for (const clang::Stmt *part : parts)
    if (!part || !check.TraverseStmt(const_cast<clang::Stmt *>(part)))
      return false;
  if (!check.fills_array)
    return false;
  for (const clang::VarDecl *reference : check.references) {
    auto bound = state_.env.find(localKey(*reference));
    if (bound == state_.env.end() || bound->second.kind != Value::Kind::Pointer ||
        bound->second.object || bound->second.local.empty())
      return false;
  }
  // The trip count first, from the counter alone: the body never assigns
  // it (canonicalForm), and the condition must be a constant each time.
  State entry = state_;
  walk(loop.getInit());
  int64_t trips = 0;
  for (;; ++trips) {
    z3::expr enters = asBool(eval(loop.getCond())).simplify();
    if (enters.is_false())
      break;
    if (!enters.is_true() || trips == kMaxUnrolledTrips) {
      state_ = entry;
      return false;
    }
    eval(clang::cast<clang::Expr>(loop.getInc()));
  }
  state_ = entry;
  walk(loop.getInit());
  for (int64_t i = 0; i < trips; ++i) {
    walk(loop.getBody());
    eval(clang::cast<clang::Expr>(loop.getInc()));
  }
  return true;
}

std::optional<Builder::ConstantLoop>
Builder::constantLoop(const clang::Stmt &loop, const LoopShape &shape, const State &entry,
                      const z3::expr &k, const z3::expr &enters) {
  if (clang::isa<clang::DoStmt>(loop) || !shape.cond)
    return std::nullopt;
  ConstantLoop out;
  std::vector<ScalingStep> steps;
  for (const ScalingStep &step : scalingSteps(shape, ast_)) {
    std::string key = localKey(*step.var);
    auto start = entry.env.find(key);
    auto head = state_.env.find(key);
    if (start == entry.env.end() || head == state_.env.end() ||
        start->second.kind != Value::Kind::Int || head->second.kind != Value::Kind::Int)
      continue;
    IntType type = intTypeOf(step.var->getType());
    std::optional<int64_t> from =
        Arith::numeral(asInt(start->second, type).simplify(), type.is_signed);
    if (!from)
      continue;
    out.variables.push_back({key, type, head->second.expr, {*from}});
    steps.push_back(step);
  }
  // The condition at the head of iteration j, with each scaled variable
  // at its value there; stepped variables are linear in k already.
  for (int64_t j = 0;; ++j) {
    if (j > kMaxConstantTrips)
      return std::nullopt;
    z3::expr_vector from(ctx()), to(ctx());
    for (const TabulatedVariable &v : out.variables) {
      from.push_back(v.head);
      to.push_back(arith_.constant(v.values[j], v.type));
    }
    z3::expr at = z3::expr(enters).substitute(from, to);
    z3::expr_vector iteration(ctx()), numeral(ctx());
    iteration.push_back(k);
    numeral.push_back(arith_.constant(j, kInt64));
    at = at.substitute(iteration, numeral).simplify();
    if (at.is_false()) {
      out.trips = j;
      break;
    }
    if (!at.is_true())
      return std::nullopt;
    for (size_t i = 0; i < out.variables.size(); ++i) {
      TabulatedVariable &v = out.variables[i];
      std::optional<int64_t> next = scaledOnce(v.values[j], steps[i], v.type);
      if (!next)
        return std::nullopt;
      v.values.push_back(*next);
    }
  }
  for (const TabulatedVariable &v : out.variables) {
    for (int64_t j = 0; j < out.trips; ++j)
      model_.thread_facts.push_back(k != arith_.constant(j, kInt64) ||
                                    v.head == arith_.constant(v.values[j], v.type));
    // Known in every iteration, the value is no longer over-approximated.
    if (v.head.is_app())
      model_.imprecisions.erase(v.head.decl().name().str());
  }
  // A loop of no iterations has no k below its count.
  if (out.trips > 0)
    model_.thread_facts.push_back(k < arith_.constant(out.trips, kInt64) || !entry.pc);
  return out;
}

void Builder::leaveConstantLoop(const ConstantLoop &loop, const std::vector<SteppedVariable> &stepped,
                                const z3::expr &trips, const z3::expr &exit_k,
                                const z3::expr &entry_pc) {
  z3::expr count = arith_.constant(loop.trips, kInt64);
  (iterations_.empty() ? model_.shared_facts : model_.thread_facts).push_back(trips == count);
  model_.thread_facts.push_back(exit_k == count || !entry_pc);
  for (const TabulatedVariable &v : loop.variables)
    state_.env.insert_or_assign(v.key, intValue(arith_.constant(v.values.back(), v.type), v.type));
  for (const SteppedVariable &v : stepped) {
    Value left = steppedValue(v, count);
    left.expr = left.expr.simplify();
    state_.env.insert_or_assign(v.key, left);
  }
}

} // namespace gpurace::analyzer::builder
