// The facts that hold at a launch because of the host code around it:
// asserts and exit guards before it, the conditions of the branches and
// loops that enclose it, and what the induction variables of those loops
// say.
#include "analyzer/host/HostValues.h"

#include "analyzer/host/HostExpressions.h"
#include "analyzer/model/SourceLocations.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

namespace gpurace::analyzer {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;

Fact HostValues::fact(z3::expr term, v1::HostFactKind kind,
                      const std::string &text, const clang::Stmt &at) {
  v1::Assumption a;
  a.set_kind(kind);
  a.set_role(v1::Assumption::ROLE_USED);
  a.set_description(text);
  *a.mutable_location() =
      toLocation(at.getSourceRange(), ast_.getSourceManager(),
                 host_ ? host_->getQualifiedNameAsString() : "");
  return {term, a};
}

z3::expr HostValues::stated(const std::string &name, const z3::expr &value,
                            const std::string &description, const clang::Stmt *at) {
  z3::expr symbol = symbols_.shared(name, kInt64);
  if (!stated_.insert(name).second)
    return symbol;
  stated_values_.emplace_back(symbol, value);
  Fact named{symbol == value, {}};
  if (at) {
    named = fact(symbol == value, v1::HOST_FACT_KIND_ANALYSIS, description, *at);
  } else {
    named.assumption.set_kind(v1::HOST_FACT_KIND_ANALYSIS);
    named.assumption.set_role(v1::Assumption::ROLE_USED);
    named.assumption.set_description(description);
  }
  value_facts_.push_back(std::move(named));
  return symbol;
}

void HostValues::addCondition(const clang::Expr *condition, bool holds,
                              v1::HostFactKind kind, const std::string &text,
                              const clang::Stmt &at, std::vector<Fact> &facts) {
  // `if (!(c)) exit(1);` says c: shown as the user wrote c, also when the
  // negation comes from a macro.
  if (auto *negation = dyn_cast<clang::UnaryOperator>(condition->IgnoreParenImpCasts()))
    if (negation->getOpcode() == clang::UO_LNot) {
      addCondition(negation->getSubExpr()->IgnoreParens(), !holds, kind, text, at, facts);
      return;
    }
  auto v = value(condition);
  if (!v)
    return;
  z3::expr truth = arith_.toBool(*v);
  std::string shown = sourceText(condition->getSourceRange(), ast_.getSourceManager());
  facts.push_back(fact(holds ? truth : !truth, kind,
                       text + (holds ? shown : "!(" + shown + ")"), at));
}

void HostValues::addPrecedingGuards(const clang::Stmt &block,
                                    const clang::Stmt *until,
                                    std::vector<Fact> &facts) {
  for (const clang::Stmt *stmt : block.children()) {
    if (stmt == until)
      break;
    addGuard(*stmt, facts);
  }
}

void HostValues::addGuard(const clang::Stmt &stmt, std::vector<Fact> &facts) {
  if (const clang::Expr *asserted = assertedCondition(&stmt)) {
    addCondition(asserted, true, v1::HOST_FACT_KIND_ASSERT, "assert: ", stmt, facts);
    return;
  }
  // `do { if (!(c)) abort(); } while (0)`: the shape of assert macros such
  // as KALDI_ASSERT.
  if (auto *once = dyn_cast<clang::DoStmt>(&stmt)) {
    bool loops = true;
    if (!once->getCond()->isValueDependent() &&
        once->getCond()->EvaluateAsBooleanCondition(loops, ast_) && !loops) {
      if (isa<clang::CompoundStmt>(once->getBody()))
        addPrecedingGuards(*once->getBody(), nullptr, facts);
      else
        addGuard(*once->getBody(), facts);
    }
    return;
  }
  auto *if_stmt = dyn_cast<clang::IfStmt>(&stmt);
  if (if_stmt && !if_stmt->getElse() && callsTerminator(if_stmt->getThen()))
    addCondition(if_stmt->getCond(), false, v1::HOST_FACT_KIND_ASSERT, "guard: ",
                 stmt, facts);
}

bool HostValues::contains(const clang::Stmt &outer, const clang::Stmt &inner) const {
  return statementWithin(ast_, outer, inner);
}

bool HostValues::changedBeforeLaunch(const clang::Stmt &body,
                                     const clang::VarDecl &var) const {
  const auto &writes = environment_.writesOf(var);
  if (writes.empty())
    return false;
  const clang::SourceManager &sources = ast_.getSourceManager();
  for (const clang::Stmt *write : writes) {
    if (!contains(body, *write))
      continue;
    if (sources.isBeforeInTranslationUnit(write->getBeginLoc(), launch_->getBeginLoc()))
      return true;
    // A write after the launch in a loop around both still comes first
    // on that loop's next iteration.
    for (const clang::Stmt *parent = parentStatement(ast_, *write); parent && parent != &body;
         parent = parentStatement(ast_, *parent)) {
      if ((isa<clang::ForStmt>(parent) || isa<clang::WhileStmt>(parent) ||
           isa<clang::DoStmt>(parent)) &&
          contains(*parent, *launch_))
        return true;
    }
  }
  return false;
}

void HostValues::addLoopFacts(const clang::Stmt &loop, const clang::Expr *condition,
                              const clang::Stmt &body, std::vector<Fact> &facts) {
  if (!condition)
    return;
  std::vector<const clang::VarDecl *> tested;
  collectVars(condition, tested);
  for (const clang::VarDecl *var : tested)
    if (changedBeforeLaunch(body, *var))
      return;
  addCondition(condition, true, v1::HOST_FACT_KIND_LOOP_BOUND, "loop: ", loop, facts);
  for (const clang::VarDecl *var : tested)
    addInductionFacts(loop, *var, facts);
}

void HostValues::addInductionFacts(const clang::Stmt &loop, const clang::VarDecl &var,
                                   std::vector<Fact> &facts) {
  if (!var.getType()->isIntegralOrEnumerationType() && !holdsWholeNumbers(var))
    return;
  const clang::Expr *start =
      var.isLocalVarDecl() && !var.isStaticLocal() ? var.getInit() : nullptr;
  const clang::Stmt *restart = nullptr; // `for (i = s; ...)`
  if (auto *for_loop = dyn_cast<clang::ForStmt>(&loop))
    if (auto *init = dyn_cast_or_null<clang::BinaryOperator>(for_loop->getInit()))
      if (init->getOpcode() == clang::BO_Assign && referencedVar(init->getLHS()) == &var) {
        start = init->getRHS();
        restart = init;
      }
  const auto &writes = environment_.writesOf(var);
  if (!start || writes.empty())
    return;
  // Every other write must add a constant of one sign; after a restart
  // they must all lie in this loop, which the restart begins.
  std::vector<const clang::Stmt *> steps;
  for (const clang::Stmt *write : writes) {
    if (write == restart)
      continue;
    if (restart && !contains(loop, *write))
      return;
    steps.push_back(write);
  }
  std::optional<StepSummary> summary = summarizeSteps(steps, var, ast_);
  std::optional<z3::expr> from = value(start);
  if (!summary || summary->direction == 0 || !from)
    return;
  int direction = summary->direction;
  int64_t stride = summary->stride;
  z3::expr at_launch = symbolFor(var);
  induction_values_->insert(at_launch.decl().name().str());
  std::string name = var.getNameAsString();
  std::string shown = sourceText(start->getSourceRange(), ast_.getSourceManager());
  if (summary->scales) {
    addScalingFacts(loop, at_launch, *from, *summary,
                    name + (direction > 0 ? " grows from " : " shrinks from ") + shown, facts);
    // `stride <<= 1` from 1024: a power of two stays one (or becomes zero).
    if (scalesByPowersOfTwo(steps, var, ast_)) {
      // Host values are 64-bit terms.
      facts.push_back(fact(z3::implies(arith_.powerOfTwoOrZero(*from, kInt64),
                                       arith_.powerOfTwoOrZero(at_launch, kInt64)),
                           v1::HOST_FACT_KIND_LOOP_BOUND,
                           "loop: " + name + " stays a power of two if " + shown + " is one",
                           loop));
    }
    return;
  }
  facts.push_back(fact(direction > 0 ? arith_.lessEq(*from, at_launch, true)
                                     : arith_.lessEq(at_launch, *from, true),
                       v1::HOST_FACT_KIND_LOOP_BOUND,
                       "loop: " + name + (direction > 0 ? " counts up from " : " counts down from ") +
                           shown,
                       loop));
  if (stride > 1)
    facts.push_back(fact(arith_.rem(arith_.sub(at_launch, *from),
                                    arith_.constant(stride, kInt64), true) ==
                             arith_.constant(0, kInt64),
                         v1::HOST_FACT_KIND_LOOP_BOUND,
                         "loop: " + name + " steps by " + std::to_string(stride) + " from " +
                             shown,
                         loop));
}

void HostValues::addScalingFacts(const clang::Stmt &loop, const z3::expr &at_launch,
                                 const z3::expr &from, const StepSummary &steps,
                                 const std::string &described, std::vector<Fact> &facts) {
  // Multiplying a positive value by at least one (`stride <<= 1`,
  // `n *= 2`), or adding a positive constant, never makes it smaller.
  // Dividing a non-negative one (`s >>= 1`, `s /= 2`) keeps it between zero
  // and where it started, unless constants are also subtracted.
  z3::expr zero = arith_.constant(0, kInt64);
  std::optional<z3::expr> bound;
  if (steps.direction > 0)
    bound = z3::implies(arith_.less(zero, from, true), arith_.lessEq(from, at_launch, true));
  else if (steps.stride == 0)
    bound = z3::implies(arith_.lessEq(zero, from, true),
                        arith_.lessEq(zero, at_launch, true) &&
                            arith_.lessEq(at_launch, from, true));
  if (bound)
    facts.push_back(fact(*bound, v1::HOST_FACT_KIND_LOOP_BOUND, "loop: " + described, loop));
}

std::vector<Fact> HostValues::dominatingFacts() {
  std::vector<Fact> facts;
  const clang::Stmt *child = launch_;
  // The statement below `child` on the way up: for a switch, the statement
  // of its body that holds the launch.
  const clang::Stmt *grandchild = nullptr;
  // `int ret = run(...)`: up through the declaration to its statement.
  for (const clang::Stmt *parent = parentStatement(ast_, *launch_, true); parent;
       parent = parentStatement(ast_, *parent, true)) {
    if (isa<clang::CompoundStmt>(parent)) {
      addPrecedingGuards(*parent, child, facts);
    } else if (auto *if_stmt = dyn_cast<clang::IfStmt>(parent)) {
      if (child == if_stmt->getThen() || child == if_stmt->getElse())
        addCondition(if_stmt->getCond(), child == if_stmt->getThen(),
                     v1::HOST_FACT_KIND_ASSERT, "enclosing condition: ", *parent,
                     facts);
    } else if (auto *loop = dyn_cast<clang::ForStmt>(parent)) {
      if (child == loop->getBody())
        addLoopFacts(*loop, loop->getCond(), *loop->getBody(), facts);
    } else if (auto *loop = dyn_cast<clang::WhileStmt>(parent)) {
      if (child == loop->getBody())
        addLoopFacts(*loop, loop->getCond(), *loop->getBody(), facts);
    } else if (auto *switch_stmt = dyn_cast<clang::SwitchStmt>(parent)) {
      if (child == switch_stmt->getBody() && grandchild)
        addSwitchFacts(*switch_stmt, *grandchild, facts);
    }
    grandchild = child;
    child = parent;
  }
  if (caller_)
    for (Fact &fact : caller_->dominatingFacts())
      facts.push_back(std::move(fact));
  return facts;
}


} // namespace gpurace::analyzer
