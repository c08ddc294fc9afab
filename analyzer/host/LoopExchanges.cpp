#include "analyzer/host/LoopExchanges.h"

#include "analyzer/host/HostExpressions.h"
#include "analyzer/host/ReachingDefinitions.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace gpurace::analyzer {

using clang::dyn_cast;
using clang::isa;

namespace {

const clang::VarDecl *namedVar(const clang::Expr *e) {
  auto *ref = dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
  return ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

// One step of an exchange: `to = from`, `T *to = from;`, or
// `std::swap(to, from)`.
struct Copy {
  const clang::VarDecl *to = nullptr;
  const clang::VarDecl *from = nullptr;
  bool swap = false;
};

std::optional<Copy> copyIn(const clang::Stmt &stmt) {
  if (auto *decls = dyn_cast<clang::DeclStmt>(&stmt)) {
    auto *declared = decls->isSingleDecl() ? dyn_cast<clang::VarDecl>(decls->getSingleDecl())
                                           : nullptr;
    const clang::VarDecl *from =
        declared && declared->getInit() ? namedVar(declared->getInit()) : nullptr;
    if (!from || declared->getType()->isReferenceType())
      return std::nullopt;
    return Copy{declared, from, false};
  }
  auto *e = dyn_cast<clang::Expr>(&stmt);
  if (!e)
    return std::nullopt;
  e = e->IgnoreImplicit()->IgnoreParens();
  if (auto *assign = dyn_cast<clang::BinaryOperator>(e);
      assign && assign->getOpcode() == clang::BO_Assign) {
    const clang::VarDecl *to = namedVar(assign->getLHS()), *from = namedVar(assign->getRHS());
    if (to && from)
      return Copy{to, from, false};
    return std::nullopt;
  }
  auto *call = dyn_cast<clang::CallExpr>(e);
  if (!call || !isStdSwap(*call))
    return std::nullopt;
  const clang::VarDecl *a = namedVar(call->getArg(0)), *b = namedVar(call->getArg(1));
  if (!a || !b)
    return std::nullopt;
  return Copy{a, b, true};
}

// Whether `stmt` holds a break, continue or goto.
bool branchesAway(const clang::Stmt &stmt) {
  if (isa<clang::BreakStmt, clang::ContinueStmt, clang::GotoStmt>(stmt))
    return true;
  for (const clang::Stmt *child : stmt.children())
    if (child && branchesAway(*child))
      return true;
  return false;
}

// Whether control may leave the iteration inside `stmt` (callsTerminator
// covers returns, throws and calls that never return).
bool jumps(const clang::Stmt &stmt) { return branchesAway(stmt) || callsTerminator(&stmt); }

const clang::Stmt *bodyOf(const clang::Stmt &loop) {
  if (auto *for_loop = dyn_cast<clang::ForStmt>(&loop))
    return for_loop->getBody();
  if (auto *while_loop = dyn_cast<clang::WhileStmt>(&loop))
    return while_loop->getBody();
  if (auto *do_loop = dyn_cast<clang::DoStmt>(&loop))
    return do_loop->getBody();
  return nullptr;
}

// The state of an iteration after each of its steps: which variable's
// value on entry to the iteration each variable holds.
class ExchangeWalk {
public:
  ExchangeWalk(const clang::Stmt &body, const ReachingDefinitions &environment,
               clang::ASTContext &ast)
      : body_(body), environment_(environment), ast_(ast) {}

  // Runs the steps; false when a jump may cut an exchange short.
  bool run() {
    std::vector<const clang::Stmt *> steps;
    if (auto *block = dyn_cast<clang::CompoundStmt>(&body_)) {
      for (const clang::Stmt *stmt : block->body())
        if (stmt)
          addSteps(*stmt, steps);
    } else {
      addSteps(body_, steps);
    }
    std::optional<size_t> first, last;
    std::vector<bool> jump;
    for (size_t i = 0; i < steps.size(); ++i) {
      jump.push_back(jumps(*steps[i]));
      if (std::optional<Copy> copy = copyIn(*steps[i])) {
        apply(*copy);
        first = first.value_or(i);
        last = i;
      } else {
        clobber(*steps[i]);
      }
    }
    for (size_t i = first.value_or(0); first && i < *last; ++i)
      if (jump[i])
        return false;
    return true;
  }

  // Writes outside the body (a condition, an increment) leave no exchange.
  void clobber(const clang::Stmt &stmt) {
    for (const clang::VarDecl *var : environment_.writtenVariables())
      if (environment_.writes(stmt, *var, ""))
        clobbered_.insert(var);
    std::vector<const clang::VarDecl *> read;
    collectVars(&stmt, read);
    referenced_.insert(read.begin(), read.end());
  }

  // The group of `var`: the variables whose values pass among each other,
  // when every one of them ends the iteration holding the entry value of
  // exactly one of them.
  std::vector<const clang::VarDecl *> groupOf(const clang::VarDecl &var) const {
    if (dead(var))
      return {};
    std::set<const clang::VarDecl *> group{&var};
    std::vector<const clang::VarDecl *> pending{&var};
    while (!pending.empty()) {
      const clang::VarDecl *v = pending.back();
      pending.pop_back();
      std::vector<const clang::VarDecl *> linked{holding(v)};
      for (const auto &[other, held] : holds_)
        if (held == v)
          linked.push_back(other);
      for (const clang::VarDecl *u : linked)
        if (!dead(*u) && group.insert(u).second)
          pending.push_back(u);
    }
    std::set<const clang::VarDecl *> sources;
    for (const clang::VarDecl *v : group) {
      if (clobbered_.count(v) || !group.count(holding(v)))
        return {};
      sources.insert(holding(v));
    }
    if (group.size() < 2 || sources.size() != group.size())
      return {};
    std::vector<const clang::VarDecl *> out(group.begin(), group.end());
    const clang::SourceManager &sm = ast_.getSourceManager();
    std::sort(out.begin(), out.end(), [&](const clang::VarDecl *a, const clang::VarDecl *b) {
      return sm.isBeforeInTranslationUnit(a->getLocation(), b->getLocation());
    });
    return out;
  }

  // The variables the iteration's copies set, in the order they are set.
  const std::vector<const clang::VarDecl *> &copied() const { return copied_; }

private:
  // `t = a, a = b, b = t;` is three steps.
  static void addSteps(const clang::Stmt &stmt, std::vector<const clang::Stmt *> &steps) {
    auto *e = dyn_cast<clang::Expr>(&stmt);
    auto *comma = e ? dyn_cast<clang::BinaryOperator>(e->IgnoreImplicit()->IgnoreParens())
                    : nullptr;
    if (!comma || comma->getOpcode() != clang::BO_Comma) {
      steps.push_back(&stmt);
      return;
    }
    addSteps(*comma->getLHS(), steps);
    addSteps(*comma->getRHS(), steps);
  }

  const clang::VarDecl *holding(const clang::VarDecl *var) const {
    auto found = holds_.find(var);
    return found == holds_.end() ? var : found->second;
  }

  void apply(const Copy &copy) {
    for (const clang::VarDecl *var : {copy.to, copy.from})
      if (std::find(copied_.begin(), copied_.end(), var) == copied_.end())
        copied_.push_back(var);
    if (copy.swap) {
      const clang::VarDecl *a = holding(copy.to), *b = holding(copy.from);
      holds_[copy.to] = b;
      holds_[copy.from] = a;
      referenced_.insert({copy.to, copy.from});
      return;
    }
    const clang::VarDecl *from = holding(copy.from);
    referenced_.insert(copy.from);
    // Set before anything reads it: a temporary, whatever it held before.
    if (!referenced_.count(copy.to))
      temporaries_.insert(copy.to);
    referenced_.insert(copy.to);
    holds_[copy.to] = from;
  }

  // A variable whose value at the head of an iteration the iteration never
  // reads: declared in the body, or set before any reading.
  bool dead(const clang::VarDecl &var) const {
    const clang::SourceManager &sm = ast_.getSourceManager();
    return temporaries_.count(&var) ||
           sm.isPointWithin(var.getLocation(), body_.getBeginLoc(), body_.getEndLoc());
  }

  const clang::Stmt &body_;
  const ReachingDefinitions &environment_;
  clang::ASTContext &ast_;
  std::map<const clang::VarDecl *, const clang::VarDecl *> holds_;
  std::set<const clang::VarDecl *> clobbered_, referenced_, temporaries_;
  std::vector<const clang::VarDecl *> copied_;
};

} // namespace

std::vector<std::vector<const clang::VarDecl *>>
exchangeGroups(const clang::Stmt &loop, const ReachingDefinitions &environment,
               clang::ASTContext &ast) {
  const clang::Stmt *body = bodyOf(loop);
  if (!body)
    return {};
  ExchangeWalk walk(*body, environment, ast);
  if (!walk.run())
    return {};
  // What the head of the loop writes (`for (init; cond; inc)`) is not an
  // exchange; the group's values on entry are read before the init.
  for (const clang::Stmt *child : loop.children())
    if (child && child != body)
      walk.clobber(*child);
  std::vector<std::vector<const clang::VarDecl *>> groups;
  for (const clang::VarDecl *var : walk.copied()) {
    bool known = std::any_of(groups.begin(), groups.end(), [&](const auto &group) {
      return std::find(group.begin(), group.end(), var) != group.end();
    });
    if (!known)
      if (std::vector<const clang::VarDecl *> group = walk.groupOf(*var); !group.empty())
        groups.push_back(std::move(group));
  }
  return groups;
}

} // namespace gpurace::analyzer
