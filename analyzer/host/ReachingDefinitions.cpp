#include "analyzer/host/ReachingDefinitions.h"

#include "analyzer/host/HostExpressions.h"
#include "analyzer/host/LoopExchanges.h"
#include "analyzer/model/SourceLocations.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>

namespace gpurace::analyzer {

namespace {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;

// Beyond this many definitions on separate paths, the value is unknown.
constexpr size_t kMaxDefinitions = 16;

// The variable an lvalue names, through member accesses (`grid.x = ...`
// writes grid) and `&` (`cudaMalloc(&p, n)`).
const clang::VarDecl *writtenVar(const clang::Expr *e) {
  e = e->IgnoreParenCasts();
  if (auto *unary = dyn_cast<clang::UnaryOperator>(e))
    if (unary->getOpcode() == clang::UO_AddrOf)
      e = unary->getSubExpr()->IgnoreParenCasts();
  while (auto *member = dyn_cast<clang::MemberExpr>(e)) {
    if (member->isArrow())
      return nullptr;
    e = member->getBase()->IgnoreParenCasts();
  }
  auto *ref = dyn_cast<clang::DeclRefExpr>(e);
  return ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

// The pointer variable whose pointee an lvalue names: `*p`, `p->x`,
// `(*p).x`, `p[0]`.
const clang::VarDecl *pointeeOf(const clang::Expr *e) {
  e = e->IgnoreParenCasts();
  while (auto *member = dyn_cast<clang::MemberExpr>(e)) {
    if (member->isArrow()) {
      e = member->getBase()->IgnoreParenCasts();
      auto *ref = dyn_cast<clang::DeclRefExpr>(e);
      return ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    }
    e = member->getBase()->IgnoreParenCasts();
  }
  const clang::Expr *pointer = nullptr;
  if (auto *unary = dyn_cast<clang::UnaryOperator>(e); unary && unary->getOpcode() == clang::UO_Deref)
    pointer = unary->getSubExpr();
  else if (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(e))
    pointer = subscript->getBase();
  auto *ref = pointer ? dyn_cast<clang::DeclRefExpr>(pointer->IgnoreParenCasts()) : nullptr;
  return ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

class WriteFinder : public clang::DynamicRecursiveASTVisitor {
public:
  std::map<const clang::VarDecl *, std::set<const clang::Stmt *>> found;
  std::map<const clang::VarDecl *, std::set<const clang::Stmt *>> through_pointer;
  std::set<const clang::FieldDecl *> members;

  bool VisitBinaryOperator(clang::BinaryOperator *op) override {
    if (op->isAssignmentOp())
      note(op->getLHS(), op);
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *op) override {
    if (op->isIncrementDecrementOp() ||
        (op->getOpcode() == clang::UO_AddrOf && !launch_argument_addresses_.count(op)))
      note(op->getSubExpr(), op);
    return true;
  }
  // `void *args[] = {&a, &n}` takes addresses for cudaLaunchKernel to read
  // the arguments, not to change them.
  bool VisitVarDecl(clang::VarDecl *var) override {
    auto *list = dyn_cast_or_null<clang::InitListExpr>(var->getInit());
    if (!list || !var->getType()->isArrayType())
      return true;
    for (const clang::Expr *element : list->inits())
      if (auto *address = dyn_cast<clang::UnaryOperator>(element->IgnoreParenCasts()))
        if (address->getOpcode() == clang::UO_AddrOf)
          launch_argument_addresses_.insert(address);
    return true;
  }
  bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr *call) override {
    if (call->isAssignmentOp() && call->getNumArgs() > 0)
      note(call->getArg(0), call);
    return true;
  }
  // A variable bound to a non-const reference parameter may be changed by
  // the callee (`getSizes(rows, cols)`).
  bool VisitCallExpr(clang::CallExpr *call) override {
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (!callee || isa<clang::CXXOperatorCallExpr>(call))
      return true;
    for (unsigned i = 0; i < call->getNumArgs() && i < callee->getNumParams(); ++i) {
      clang::QualType type = callee->getParamDecl(i)->getType();
      if (type->isLValueReferenceType() && !type->getPointeeType().isConstQualified())
        note(call->getArg(i), call);
      // A pointer handed on may be written through.
      auto *ref = dyn_cast<clang::DeclRefExpr>(call->getArg(i)->IgnoreParenImpCasts());
      auto *pointer = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
      if (pointer && pointer->getType()->isPointerType() && type->isPointerType() &&
          !type->getPointeeType().isConstQualified())
        through_pointer[pointer].insert(call);
    }
    return true;
  }

private:
  void note(const clang::Expr *e, const clang::Stmt *at) {
    if (const clang::VarDecl *var = writtenVar(e))
      found[var].insert(at);
    else if (const clang::VarDecl *pointer = pointeeOf(e))
      through_pointer[pointer].insert(at);
    else if (auto *member = dyn_cast<clang::MemberExpr>(e->IgnoreParenCasts()))
      if (isa<clang::CXXThisExpr>(member->getBase()->IgnoreParenCasts()))
        if (auto *field = dyn_cast<clang::FieldDecl>(member->getMemberDecl()))
          members.insert(field);
  }
  std::set<const clang::UnaryOperator *> launch_argument_addresses_;
};

bool isLoop(const clang::Stmt &stmt) {
  return isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CXXForRangeStmt>(stmt);
}

// Whether `stmt` holds a `break` that leaves the switch around it (one not
// inside a loop or switch of its own).
bool breaksOutOf(const clang::Stmt &stmt) {
  if (isa<clang::BreakStmt>(stmt))
    return true;
  if (isLoop(stmt) || isa<clang::SwitchStmt>(stmt))
    return false;
  for (const clang::Stmt *child : stmt.children())
    if (child && breaksOutOf(*child))
      return true;
  return false;
}

} // namespace

std::string writtenField(const clang::Stmt &write, const clang::VarDecl &var, bool pointee) {
  const clang::Expr *target = nullptr;
  if (auto *op = dyn_cast<clang::BinaryOperator>(&write))
    target = op->getLHS();
  else if (auto *unary = dyn_cast<clang::UnaryOperator>(&write))
    target = unary->getSubExpr();
  else if (auto *call = dyn_cast<clang::CXXOperatorCallExpr>(&write))
    target = call->getNumArgs() > 0 ? call->getArg(0) : nullptr;
  auto *member = target ? dyn_cast<clang::MemberExpr>(target->IgnoreParenCasts()) : nullptr;
  if (member && pointee) {
    // `p->x`, `(*p).x`
    const clang::Expr *base = member->getBase()->IgnoreParenCasts();
    if (!member->isArrow())
      if (auto *deref = dyn_cast<clang::UnaryOperator>(base);
          deref && deref->getOpcode() == clang::UO_Deref)
        base = deref->getSubExpr()->IgnoreParenCasts();
    auto *ref = dyn_cast<clang::DeclRefExpr>(base);
    return ref && ref->getDecl() == &var ? member->getMemberDecl()->getNameAsString() : "";
  }
  if (!member || member->isArrow() || pointee)
    return "";
  // Only the outermost member of the variable itself: `a.b.c = 1` writes
  // all of `a.b`, which its fields stand for here.
  auto *ref = dyn_cast<clang::DeclRefExpr>(member->getBase()->IgnoreParenCasts());
  if (!ref || ref->getDecl() != &var)
    return "";
  return member->getMemberDecl()->getNameAsString();
}

ReachingDefinitions::ReachingDefinitions(clang::ASTContext &ast,
                                         const clang::FunctionDecl *function)
    : ast_(ast), function_(function) {
  if (function_ && function_->hasBody()) {
    WriteFinder finder;
    finder.TraverseStmt(function_->getBody());
    writes_ = std::move(finder.found);
    pointee_writes_ = std::move(finder.through_pointer);
    member_writes_ = std::move(finder.members);
  }
}

const std::set<const clang::Stmt *> &
ReachingDefinitions::writesOf(const clang::VarDecl &var) const {
  static const std::set<const clang::Stmt *> none;
  auto found = writes_.find(&var);
  return found == writes_.end() ? none : found->second;
}

std::vector<const clang::VarDecl *> ReachingDefinitions::writtenVariables() const {
  std::vector<const clang::VarDecl *> out;
  for (const auto &[var, writes] : writes_)
    out.push_back(var);
  return out;
}

const std::vector<const clang::VarDecl *> &
ReachingDefinitions::exchangeGroupOf(const clang::Stmt &loop, const clang::VarDecl &var) const {
  static const std::vector<const clang::VarDecl *> none;
  auto found = exchange_groups_.find(&loop);
  if (found == exchange_groups_.end())
    found = exchange_groups_.emplace(&loop, exchangeGroups(loop, *this, ast_)).first;
  for (const auto &group : found->second)
    if (std::find(group.begin(), group.end(), &var) != group.end())
      return group;
  return none;
}

bool ReachingDefinitions::contains(const clang::Stmt &outer, const clang::Stmt &inner) const {
  // Through declarations too: an initializer's parent is its variable.
  return statementWithin(ast_, outer, inner, true);
}

bool ReachingDefinitions::writes(const clang::Stmt &stmt, const clang::VarDecl &var,
                                 const std::string &field, bool pointee) const {
  static const std::set<const clang::Stmt *> none;
  auto through = pointee_writes_.find(&var);
  const auto &all = !pointee ? writesOf(var)
                    : through == pointee_writes_.end() ? none
                                                       : through->second;
  for (const clang::Stmt *write : all) {
    if (!contains(stmt, *write))
      continue;
    std::string written = writtenField(*write, var, pointee);
    if (field.empty() || written.empty() || written == field)
      return true;
  }
  return false;
}

std::vector<const clang::Stmt *> ReachingDefinitions::writesWithin(const clang::Stmt &scope,
                                                                   const clang::VarDecl &var,
                                                                   const std::string &field) const {
  std::vector<const clang::Stmt *> out;
  for (const clang::Stmt *write : writesOf(var)) {
    if (!contains(scope, *write))
      continue;
    std::string written = writtenField(*write, var, false);
    if (field.empty() || written.empty() || written == field)
      out.push_back(write);
  }
  return out;
}

// One walk for one variable (or field) towards one point.
struct ReachingDefinitions::Walk {
  const ReachingDefinitions &env;
  const clang::VarDecl &var;
  const std::string &field;
  const clang::Stmt *point;
  bool pointee = false;

  bool writes(const clang::Stmt &stmt) const { return env.writes(stmt, var, field, pointee); }

  Definitions unknown(const clang::Stmt &at, const std::string &reason) const {
    Definition d;
    d.kind = Definition::Kind::Unknown;
    d.at = &at;
    d.reason = reason + " at line " + std::to_string(line(at));
    return {d};
  }

  unsigned line(const clang::Stmt &at) const {
    return env.ast_.getSourceManager().getSpellingLineNumber(at.getBeginLoc());
  }

  std::string text(const clang::Stmt &at) const {
    return shortSourceText(at, env.ast_.getSourceManager());
  }

  bool declaredIn(const clang::Stmt &stmt) const {
    const clang::SourceManager &sources = env.ast_.getSourceManager();
    return sources.isPointWithin(var.getLocation(), stmt.getBeginLoc(), stmt.getEndLoc());
  }

  // The definitions at `point`, which `stmt` contains, given those before
  // `stmt`.
  Definitions to(const clang::Stmt &stmt, Definitions in) const {
    if (&stmt == point)
      return in;
    if (auto *block = dyn_cast<clang::CompoundStmt>(&stmt)) {
      for (const clang::Stmt *child : block->body()) {
        if (!child)
          continue;
        if (env.contains(*child, *point))
          return to(*child, std::move(in));
        bool reaches = true;
        in = through(*child, std::move(in), reaches);
      }
      return in;
    }
    if (auto *branch = dyn_cast<clang::IfStmt>(&stmt)) {
      if (env.contains(*branch->getThen(), *point))
        return to(*branch->getThen(), afterCondition(*branch, true, std::move(in)));
      if (branch->getElse() && env.contains(*branch->getElse(), *point))
        return to(*branch->getElse(), afterCondition(*branch, false, std::move(in)));
      if (env.contains(*branch->getCond(), *point))
        return toInCondition(*branch->getCond(), std::move(in));
      return in;
    }
    if (isLoop(stmt))
      return intoLoop(stmt, std::move(in));
    if (auto *decls = dyn_cast<clang::DeclStmt>(&stmt)) {
      // `int a = 1, b = a;`: the declarations before the point's.
      for (const clang::Decl *decl : decls->decls()) {
        auto *declared = dyn_cast<clang::VarDecl>(decl);
        if (declared && declared->getInit() && env.contains(*declared->getInit(), *point))
          return in;
        if (declared == &var)
          in = declaration();
      }
      return in;
    }
    if (isa<clang::Expr>(stmt))
      return in; // writes inside the statement of the point are not ordered
    if (auto *switch_stmt = dyn_cast<clang::SwitchStmt>(&stmt);
        switch_stmt && writes(stmt) && !env.contains(*switch_stmt->getCond(), *point))
      return intoSwitch(*switch_stmt, std::move(in));
    // A switch, try or label around the point: written inside, unknown.
    if (writes(stmt))
      return unknown(stmt, "set inside '" + std::string(stmt.getStmtClassName()) + "'");
    for (const clang::Stmt *child : stmt.children())
      if (child && env.contains(*child, *point))
        return to(*child, std::move(in));
    return in;
  }

  Definitions intoLoop(const clang::Stmt &loop, Definitions in) const {
    const clang::Stmt *body = nullptr;
    if (auto *for_loop = dyn_cast<clang::ForStmt>(&loop)) {
      if (const clang::Stmt *init = for_loop->getInit()) {
        if (env.contains(*init, *point))
          return to(*init, std::move(in));
        bool reaches = true;
        in = through(*init, std::move(in), reaches);
      }
      body = for_loop->getBody();
    } else if (auto *while_loop = dyn_cast<clang::WhileStmt>(&loop)) {
      body = while_loop->getBody();
    } else if (auto *do_loop = dyn_cast<clang::DoStmt>(&loop)) {
      body = do_loop->getBody();
    } else if (auto *range = dyn_cast<clang::CXXForRangeStmt>(&loop)) {
      body = range->getBody();
    }
    // A variable of the loop's body starts afresh in every iteration.
    bool local_to_body = body && declaredIn(*body);
    bool changes = false;
    for (const clang::Stmt *child : loop.children())
      if (child && !(isa<clang::ForStmt>(loop) && child == clang::cast<clang::ForStmt>(loop).getInit()) &&
          writes(*child))
        changes = true;
    if (isa<clang::CXXForRangeStmt>(loop) && declaredIn(loop) && !local_to_body)
      changes = true; // the range variable itself
    bool into_body = body && env.contains(*body, *point);
    if (auto *range = dyn_cast<clang::CXXForRangeStmt>(&loop);
        range && into_body && range->getLoopVariable() == &var && field.empty() && !pointee &&
        !writes(*body))
      return to(*body, rangeElement(*range));
    if (changes && !local_to_body) {
      if (!into_body)
        return unknown(loop, "changes from one iteration to the next of the loop");
      // What an earlier iteration left, unless the body sets it again
      // before the point (`grid.x = i;` then the launch).
      if (steers(loop))
        return to(*body, iterated(loop));
      if (Definitions exchanged = exchangedBy(loop, false); !exchanged.empty())
        return to(*body, std::move(exchanged));
      return to(*body, carried(loop, std::move(in)));
    }
    if (into_body)
      return to(*body, std::move(in));
    return in;
  }

  // Whether the loop's condition tests the variable itself (`i < n`).
  bool steers(const clang::Stmt &loop) const {
    const clang::Expr *condition = nullptr;
    if (auto *for_loop = dyn_cast<clang::ForStmt>(&loop))
      condition = for_loop->getCond();
    else if (auto *while_loop = dyn_cast<clang::WhileStmt>(&loop))
      condition = while_loop->getCond();
    if (!condition || !field.empty() || pointee)
      return false;
    std::vector<const clang::VarDecl *> tested;
    collectVars(condition, tested);
    return std::find(tested.begin(), tested.end(), &var) != tested.end();
  }

  // The exchange `loop` makes of the variable with others, if it only
  // exchanges it (LoopExchanges.h).
  Definitions exchangedBy(const clang::Stmt &loop, bool after_loop) const {
    if (!field.empty() || pointee)
      return {};
    const std::vector<const clang::VarDecl *> &group = env.exchangeGroupOf(loop, var);
    if (group.empty())
      return {};
    Definition d;
    d.kind = Definition::Kind::Exchanged;
    d.at = &loop;
    d.group = group;
    d.after_loop = after_loop;
    return {d};
  }

  Definitions rangeElement(const clang::CXXForRangeStmt &loop) const {
    Definition d;
    d.kind = Definition::Kind::RangeElement;
    d.at = &loop;
    return {d};
  }

  Definitions iterated(const clang::Stmt &loop) const {
    Definition d;
    d.kind = Definition::Kind::Iterated;
    d.at = &loop;
    return {d};
  }

  Definitions declaration() const {
    if (const clang::Expr *init = var.getInit()) {
      Definition d;
      d.kind = Definition::Kind::Assigned;
      d.value = init;
      d.at = init;
      d.whole = true;
      return {d};
    }
    Definition d;
    d.kind = Definition::Kind::Unknown;
    d.reason = "declared without a value";
    return {d};
  }

  // The definitions after `stmt`, which does not contain the point; clears
  // `reaches` when control never leaves `stmt` normally.
  Definitions through(const clang::Stmt &stmt, Definitions in, bool &reaches) const {
    if (auto *decls = dyn_cast<clang::DeclStmt>(&stmt); decls && !pointee) {
      for (const clang::Decl *decl : decls->decls())
        if (decl == &var)
          in = declaration();
    }
    if (!writes(stmt)) {
      reaches = !terminates(stmt);
      return in;
    }
    if (auto *block = dyn_cast<clang::CompoundStmt>(&stmt)) {
      for (const clang::Stmt *child : block->body()) {
        if (!child)
          continue;
        in = through(*child, std::move(in), reaches);
        if (!reaches)
          return in;
      }
      return in;
    }
    if (auto *branch = dyn_cast<clang::IfStmt>(&stmt))
      return throughBranch(*branch, std::move(in), reaches);
    if (auto *switch_stmt = dyn_cast<clang::SwitchStmt>(&stmt))
      return throughSwitch(*switch_stmt, std::move(in), reaches);
    if (isLoop(stmt))
      return leftByLoop(stmt, std::move(in));
    if (auto *expr = dyn_cast<clang::Expr>(&stmt))
      return assignment(*expr, std::move(in));
    if (isa<clang::DeclStmt>(stmt))
      return passedOut(stmt, std::move(in));
    return unknown(stmt, "changed inside '" + std::string(stmt.getStmtClassName()) + "'");
  }

  // What earlier iterations of `loop` left, at the head of one; `in`
  // reaches the first.
  Definitions carried(const clang::Stmt &loop, Definitions in) const {
    Definition d = unknown(loop, "carried from an earlier iteration of the loop").front();
    d.kind = Definition::Kind::LeftByLoop;
    d.before = std::move(in);
    return {d};
  }

  Definitions leftByLoop(const clang::Stmt &loop, Definitions in) const {
    if (auto *for_loop = dyn_cast<clang::ForStmt>(&loop); for_loop && for_loop->getInit()) {
      bool reaches = true;
      in = through(*for_loop->getInit(), std::move(in), reaches);
    }
    if (Definitions exchanged = exchangedBy(loop, true); !exchanged.empty())
      return exchanged;
    Definition d = unknown(loop, "changed in the loop").front();
    d.kind = Definition::Kind::LeftByLoop;
    d.before = std::move(in);
    return {d};
  }

  // The definitions after the condition of `branch` where it is `holds`:
  // `if ((n = atoi(s)) <= 0 || (m = atoi(t)) <= 0) usage();` sets both on
  // the path where it is false, since `||` evaluated all its operands there.
  Definitions afterCondition(const clang::IfStmt &branch, bool holds, Definitions in) const {
    if (branch.getInit() && writes(*branch.getInit()))
      return unknown(branch, "changed in the initializer of an if");
    return evaluatedAs(*branch.getCond(), holds, std::move(in));
  }

  // The definitions after `condition` has run and come out `holds`:
  // unknown where it may or may not have run a write of the variable.
  Definitions evaluatedAs(const clang::Expr &condition, bool holds, Definitions in) const {
    if (!writes(condition))
      return in;
    std::vector<const clang::Expr *> evaluated;
    definitelyEvaluated(condition, holds, evaluated);
    size_t covered = 0;
    for (const clang::Expr *part : evaluated) {
      if (!writes(*part))
        continue;
      for (const clang::Stmt *write : env.writesOf(var))
        covered += env.contains(*part, *write) ? 1 : 0;
      in = assignment(*innermostWrite(*part), std::move(in));
    }
    size_t all = 0;
    for (const clang::Stmt *write : env.writesOf(var))
      all += env.contains(condition, *write) ? 1 : 0;
    if (covered != all)
      return unknown(condition, "changed in the condition of an if");
    return in;
  }

  // The definitions at the point inside `condition`: in `a || b`, b runs
  // after all that a ran on its way to being false (in `a && b`, true).
  Definitions toInCondition(const clang::Expr &condition, Definitions in) const {
    const clang::Expr *e = condition.IgnoreParenImpCasts();
    auto *logical = dyn_cast<clang::BinaryOperator>(e);
    if (!logical || !logical->isLogicalOp())
      return in; // writes inside the operand of the point are not ordered
    if (env.contains(*logical->getLHS(), *point))
      return toInCondition(*logical->getLHS(), std::move(in));
    in = evaluatedAs(*logical->getLHS(), logical->getOpcode() == clang::BO_LAnd, std::move(in));
    return toInCondition(*logical->getRHS(), std::move(in));
  }

  // The operands of `condition` that run on every path where it is
  // `holds`, in order: all of `a || b` when false, all of `a && b` when
  // true, else only the first.
  static void definitelyEvaluated(const clang::Expr &condition, bool holds,
                                  std::vector<const clang::Expr *> &out) {
    const clang::Expr *e = condition.IgnoreParenImpCasts();
    if (auto *negation = dyn_cast<clang::UnaryOperator>(e);
        negation && negation->getOpcode() == clang::UO_LNot)
      return definitelyEvaluated(*negation->getSubExpr(), !holds, out);
    auto *logical = dyn_cast<clang::BinaryOperator>(e);
    if (!logical || !logical->isLogicalOp()) {
      out.push_back(e);
      return;
    }
    bool both = holds == (logical->getOpcode() == clang::BO_LAnd);
    if (both) {
      definitelyEvaluated(*logical->getLHS(), holds, out);
      definitelyEvaluated(*logical->getRHS(), holds, out);
      return;
    }
    // Either way for the first operand: only what runs regardless.
    std::vector<const clang::Expr *> when_true, when_false;
    definitelyEvaluated(*logical->getLHS(), true, when_true);
    definitelyEvaluated(*logical->getLHS(), false, when_false);
    for (const clang::Expr *part : when_true)
      if (std::find(when_false.begin(), when_false.end(), part) != when_false.end())
        out.push_back(part);
  }

  // The assignment inside a comparison (`(n = atoi(s)) <= 0`), or the
  // expression itself.
  const clang::Expr *innermostWrite(const clang::Expr &part) const {
    const clang::Expr *e = part.IgnoreParenImpCasts();
    while (auto *compare = dyn_cast<clang::BinaryOperator>(e)) {
      if (compare->isAssignmentOp())
        return compare;
      if (!compare->isComparisonOp())
        break;
      e = (writes(*compare->getLHS()) ? compare->getLHS() : compare->getRHS())
              ->IgnoreParenImpCasts();
    }
    return e;
  }

  Definitions throughBranch(const clang::IfStmt &branch, Definitions in, bool &reaches) const {
    bool then_reaches = true, else_reaches = true;
    Definitions then_defs = through(*branch.getThen(), afterCondition(branch, true, in), then_reaches);
    Definitions else_in = afterCondition(branch, false, std::move(in));
    Definitions else_defs =
        branch.getElse() ? through(*branch.getElse(), std::move(else_in), else_reaches)
                         : std::move(else_in);
    Definitions out;
    for (auto [defs, holds, live] : {std::make_tuple(&then_defs, true, then_reaches),
                                     std::make_tuple(&else_defs, false, else_reaches)}) {
      if (!live)
        continue;
      for (Definition &d : *defs) {
        d.conditions.push_back({&branch, holds, {}});
        out.push_back(std::move(d));
      }
    }
    reaches = then_reaches || else_reaches;
    if (!reaches)
      return then_defs; // neither continues: what follows is not reached
    if (out.size() > kMaxDefinitions)
      return unknown(branch, "set differently on more paths than are followed");
    return out;
  }

  // How a path through the statements of a switch's body ended.
  enum class CaseEnd { FellThrough, LeftSwitch, Stopped, Unread };

  // The definitions along the body's statements [from, until) entered at
  // `from`: to `until` (FellThrough), out of the switch by a break
  // (LeftSwitch), or by a return, throw or jump (Stopped). A break inside
  // a branch of a case is not followed (Unread).
  Definitions alongCases(const SwitchLabels &labels, size_t from, size_t until, Definitions in,
                         CaseEnd &end) const {
    end = CaseEnd::FellThrough;
    for (size_t j = from; j < until; ++j) {
      const clang::Stmt *stmt = labels.statements[j];
      if (!stmt)
        continue;
      std::vector<const clang::Stmt *> steps{stmt};
      if (auto *block = dyn_cast<clang::CompoundStmt>(stmt))
        steps.assign(block->body_begin(), block->body_end());
      for (const clang::Stmt *step : steps) {
        if (isa<clang::BreakStmt>(step)) {
          end = CaseEnd::LeftSwitch;
          return in;
        }
        if (breaksOutOf(*step)) {
          end = CaseEnd::Unread;
          return in;
        }
        bool reaches = true;
        in = through(*step, std::move(in), reaches);
        if (!reaches) {
          end = CaseEnd::Stopped;
          return in;
        }
      }
    }
    return in;
  }

  static void enteredBy(const clang::SwitchStmt &switch_stmt, const EntryLabels &entry,
                        Definitions path, Definitions &out) {
    for (Definition &d : path) {
      d.conditions.push_back({&switch_stmt, true, entry});
      out.push_back(std::move(d));
    }
  }

  // After a switch that writes the variable: one path per entry label, to
  // the break that leaves the switch or the end of its body, and the path
  // of a value no label names where there is no `default`.
  Definitions throughSwitch(const clang::SwitchStmt &switch_stmt, Definitions in,
                            bool &reaches) const {
    std::optional<SwitchLabels> labels = readSwitchLabels(switch_stmt, env.ast_);
    if (!labels || writes(*switch_stmt.getCond()))
      return unknown(switch_stmt, "changed inside 'SwitchStmt'");
    Definitions out;
    for (size_t i = 0; i < labels->statements.size(); ++i) {
      if (labels->entries[i].empty())
        continue;
      CaseEnd end;
      Definitions path = alongCases(*labels, i, labels->statements.size(), in, end);
      if (end == CaseEnd::Unread)
        return unknown(switch_stmt, "changed inside 'SwitchStmt'");
      if (end != CaseEnd::Stopped)
        enteredBy(switch_stmt, labels->entries[i], std::move(path), out);
    }
    if (!labels->has_default)
      enteredBy(switch_stmt, EntryLabels{{}, true}, std::move(in), out);
    reaches = !out.empty();
    if (!reaches)
      return out;
    if (out.size() > kMaxDefinitions)
      return unknown(switch_stmt, "set differently on more paths than are followed");
    return out;
  }

  // Into the case of a switch that holds the point: the paths entered at
  // each label up to it that fall through to it.
  Definitions intoSwitch(const clang::SwitchStmt &switch_stmt, Definitions in) const {
    std::optional<SwitchLabels> labels = readSwitchLabels(switch_stmt, env.ast_);
    if (!labels)
      return unknown(switch_stmt, "set inside 'SwitchStmt'");
    size_t holder = 0;
    while (holder < labels->statements.size() &&
           !env.contains(*labels->body->body_begin()[holder], *point))
      ++holder;
    const clang::Stmt *target =
        holder < labels->statements.size() ? labels->statements[holder] : nullptr;
    if (!target || !env.contains(*target, *point))
      return unknown(switch_stmt, "set inside 'SwitchStmt'");
    Definitions reaching;
    for (size_t i = 0; i <= holder; ++i) {
      if (labels->entries[i].empty())
        continue;
      CaseEnd end;
      Definitions path = alongCases(*labels, i, holder, in, end);
      if (end == CaseEnd::Unread)
        return unknown(switch_stmt, "set inside 'SwitchStmt'");
      if (end == CaseEnd::FellThrough)
        enteredBy(switch_stmt, labels->entries[i], std::move(path), reaching);
    }
    if (reaching.empty() || reaching.size() > kMaxDefinitions)
      return unknown(switch_stmt, "set inside 'SwitchStmt'");
    return to(*target, std::move(reaching));
  }

  // An expression statement that writes the variable.
  Definitions assignment(const clang::Expr &stmt, Definitions in) const {
    const clang::Expr *e = stmt.IgnoreImplicit()->IgnoreParens();
    if (auto *comma = dyn_cast<clang::BinaryOperator>(e);
        comma && comma->getOpcode() == clang::BO_Comma) {
      // `a = x, b = y`: one after the other.
      bool reaches = true;
      in = through(*comma->getLHS(), std::move(in), reaches);
      return through(*comma->getRHS(), std::move(in), reaches);
    }
    auto targets = [&](const clang::Expr *lhs) {
      if ((pointee ? pointeeOf(lhs) : writtenVar(lhs)) != &var)
        return false;
      std::string written = writtenField(*e, var, pointee);
      return written.empty() || written == field || field.empty();
    };
    if (auto *op = dyn_cast<clang::BinaryOperator>(e); op && targets(op->getLHS())) {
      if (op->getOpcode() == clang::BO_Assign) {
        Definition d;
        d.kind = Definition::Kind::Assigned;
        d.value = op->getRHS();
        d.at = op;
        d.whole = writtenField(*op, var, pointee).empty();
        // `grid.x = n` seen from the whole variable, or `var = ...` of one
        // field when the whole struct is assigned: the field is read from
        // the assigned struct.
        if (field.empty() && !d.whole)
          return unknown(stmt, "a field changed by '" + text(stmt) + "'");
        return {d};
      }
      if (op->isCompoundAssignmentOp())
        return updated(*op, std::move(in));
    }
    if (auto *unary = dyn_cast<clang::UnaryOperator>(e);
        unary && unary->isIncrementDecrementOp() && targets(unary->getSubExpr()))
      return updated(*unary, std::move(in));
    if (auto *call = dyn_cast<clang::CXXOperatorCallExpr>(e);
        call && call->isAssignmentOp() && call->getOperator() == clang::OO_Equal &&
        call->getNumArgs() == 2 && targets(call->getArg(0))) {
      Definition d;
      d.kind = Definition::Kind::Assigned;
      d.value = call->getArg(1);
      d.at = call;
      d.whole = writtenField(*call, var, pointee).empty();
      return {d};
    }
    return passedOut(stmt, std::move(in));
  }

  // What `stmt` leaves in the variable where it only hands it to a call by
  // address or reference: `getSizes(&grid, &block);`,
  // `bool ok = load(name, &width);`.
  Definitions passedOut(const clang::Stmt &stmt, Definitions in) const {
    const clang::CallExpr *call = passedTo(stmt);
    if (!call)
      return unknown(stmt, "changed by '" + text(stmt) + "'");
    Definition d;
    d.kind = Definition::Kind::PassedOut;
    d.value = call;
    d.at = &stmt;
    d.before = std::move(in);
    return {d};
  }

  // The one call of `stmt` that takes the variable by address or by
  // reference, or hands on the pointer: `getSizes(&grid, &block)`,
  // `check(getSizes(&n))`.
  const clang::CallExpr *passedTo(const clang::Stmt &stmt) const {
    const clang::CallExpr *found = nullptr;
    for (const clang::Stmt *write : pointee ? env.pointee_writes_.at(&var) : env.writesOf(var)) {
      if (!env.contains(stmt, *write))
        continue;
      const clang::CallExpr *call = dyn_cast<clang::CallExpr>(write);
      for (auto parents = env.ast_.getParents(*write); !call && !parents.empty();
           parents = env.ast_.getParents(parents[0])) {
        const clang::Stmt *parent = parents[0].get<clang::Stmt>();
        if (!parent)
          break;
        call = dyn_cast<clang::CallExpr>(parent);
        if (parent == &stmt)
          break;
      }
      if (!call || !call->getDirectCallee() || (found && found != call))
        return nullptr;
      found = call;
    }
    return found;
  }

  Definitions updated(const clang::Expr &update, Definitions in) const {
    Definition d;
    d.kind = Definition::Kind::Updated;
    d.at = &update;
    d.before = std::move(in);
    return {d};
  }
};

std::vector<Definition> ReachingDefinitions::reaching(const clang::VarDecl &var,
                                                      const std::string &field,
                                                      const clang::Stmt &point) const {
  const clang::Stmt *body = function_ ? function_->getBody() : nullptr;
  if (!body || !contains(*body, point))
    return {};
  Definition entry;
  entry.kind = Definition::Kind::OnEntry;
  Walk walk{*this, var, field, &point};
  return walk.to(*body, {entry});
}

std::vector<Definition> ReachingDefinitions::reachingExit(const clang::VarDecl &var,
                                                          const std::string &field,
                                                          bool pointee,
                                                          bool past_early_returns) const {
  auto *body = dyn_cast_or_null<clang::CompoundStmt>(function_ ? function_->getBody() : nullptr);
  if (!body)
    return {};
  // Only the last statement may return: a return elsewhere ends some paths
  // with definitions the walk does not keep.
  std::vector<const clang::ReturnStmt *> returns = returnsIn(*body);
  if (!past_early_returns &&
      (returns.size() > 1 || (returns.size() == 1 && body->body_back() != returns[0])))
    return {};
  Definition entry;
  entry.kind = Definition::Kind::OnEntry;
  Walk walk{*this, var, field, nullptr, pointee};
  bool reaches = true;
  return walk.through(*body, {entry}, reaches);
}

} // namespace gpurace::analyzer
