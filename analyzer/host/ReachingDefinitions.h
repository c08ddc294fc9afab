//===- ReachingDefinitions.h - host writes that reach a point ---*- C++ -*-===//
//
// The host environment of a function: every statement that may write each
// of its variables, and, for a point of the function (a launch, a call on
// the way to one, any expression), the definitions of a variable or of one
// field of a struct variable that reach it: the initializer and the
// assignments on every path through the statements before the point, each
// with the branch conditions that choose it. Writes whose value cannot be
// expressed as one expression of the function (inside a loop the point is
// not in, through a pointer handed to a call, as part of a larger
// expression) are definitions of an unknown value with the reason.
//
// The walk follows the structured statements (blocks, if/else, loops,
// early returns and exits); a branch that ends in a return, exit, break or
// continue does not reach what follows it.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_HOST_REACHINGDEFINITIONS_H
#define GPURACE_ANALYZER_HOST_REACHINGDEFINITIONS_H

#include "analyzer/host/SwitchLabels.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class FieldDecl;
class FunctionDecl;
class IfStmt;
class Stmt;
class VarDecl;
} // namespace clang

namespace gpurace::analyzer {

struct Definition {
  enum class Kind {
    // `value` is what the variable (or the whole struct) is set to.
    Assigned,
    // `at` updates the value `before` gives (`n += 4`, `++n`, `n <<= 1`).
    Updated,
    // The value the variable has on entry to the function: a parameter's
    // argument, or a global's value.
    OnEntry,
    // Handed by address or reference to the call `value` (`getSizes(&n)`),
    // which may set it; `before` is what it held before the call.
    PassedOut,
    // The value in the current iteration of the loop `at`, whose
    // condition tests the variable: the loop's start, step and bound
    // describe it.
    Iterated,
    // Set in a way no expression states; `reason` says how.
    Unknown,
    // What the loop `at` left in the variable, which its body changes,
    // after it or at the head of an iteration: unknown as a value
    // (`reason` says so), with `before` what it held on entering the
    // loop, so that what the loop's writes keep (a power of two stays one,
    // a positive value stays positive, a value every write sets again)
    // can still be said.
    LeftByLoop,
    // In the loop `at`, which only exchanges the values of the variables
    // of `group` among them (LoopExchanges.h): the value one of them held
    // on entry to the loop, a different one for each; at the head of an
    // iteration, or with `after_loop` what the loop left.
    Exchanged,
    // The variable of the range-based for loop `at`: an element of the
    // range, a different one in each iteration.
    RangeElement,
  };
  Kind kind = Kind::Unknown;
  const clang::Expr *value = nullptr;
  // Assigned: `value` is the whole variable (a struct whose fields are
  // read from it), not only the field asked for.
  bool whole = false;
  const clang::Stmt *at = nullptr;
  std::vector<Definition> before;
  std::string reason;
  // The branches that choose this definition: each if statement with
  // whether its condition held, each switch with the labels it was entered
  // by.
  struct Choice {
    const clang::Stmt *branch = nullptr;
    bool holds = true;
    EntryLabels entry;
  };
  std::vector<Choice> conditions;
  // Exchanged: the variables the loop exchanges, in declaration order.
  std::vector<const clang::VarDecl *> group;
  bool after_loop = false;
};

class ReachingDefinitions {
public:
  ReachingDefinitions(clang::ASTContext &ast, const clang::FunctionDecl *function);

  // The definitions of `var` (of its `field` when given) that reach
  // `point`. They partition the paths to the point: exactly one reaches
  // along any path, the one whose conditions hold. Empty when the point is
  // not in the function.
  std::vector<Definition> reaching(const clang::VarDecl &var, const std::string &field,
                                   const clang::Stmt &point) const;

  // The definitions that reach the end of the function (its one final
  // return, or the end of its body): what a callee leaves in an
  // out-parameter. With `pointee`, of what the pointer `var` points to
  // (`*p = n`, `p->x = 16`). Empty when a return in the middle of the
  // function ends some paths early.
  // With `past_early_returns`, a return in the middle ends its paths
  // instead: the definitions are those that reach the last statement, for
  // a caller that goes on only where the call did not return early.
  std::vector<Definition> reachingExit(const clang::VarDecl &var, const std::string &field,
                                       bool pointee, bool past_early_returns = false) const;

  // Every statement that may write `var` or one of its fields: assignments,
  // increments, taking its address, passing it by non-const reference.
  const std::set<const clang::Stmt *> &writesOf(const clang::VarDecl &var) const;
  bool written(const clang::VarDecl &var) const { return !writesOf(var).empty(); }
  // Every variable the function may write, as its references name it.
  std::vector<const clang::VarDecl *> writtenVariables() const;

  // Whether the function (a method) may write `field` of its own object
  // (`rows_ = n`, `this->rows_++`, `&rows_`).
  bool writesMember(const clang::FieldDecl &field) const { return member_writes_.count(&field) > 0; }

  // The variables, `var` among them, that `loop` only exchanges among
  // themselves (LoopExchanges.h), in declaration order; empty when it
  // changes `var` otherwise. Worked out once per loop.
  const std::vector<const clang::VarDecl *> &exchangeGroupOf(const clang::Stmt &loop,
                                                             const clang::VarDecl &var) const;

  // Whether `inner` is `outer` or inside it.
  bool contains(const clang::Stmt &outer, const clang::Stmt &inner) const;

  // The statements within `scope` that may write `var` (`field` of it,
  // when given): those writing the whole variable among them.
  std::vector<const clang::Stmt *> writesWithin(const clang::Stmt &scope, const clang::VarDecl &var,
                                                const std::string &field) const;

  // Whether `stmt` writes `var` (`field` of it, when given), or with
  // `pointee` what the pointer `var` points to.
  bool writes(const clang::Stmt &stmt, const clang::VarDecl &var, const std::string &field,
              bool pointee = false) const;

private:
  using Definitions = std::vector<Definition>;
  struct Walk;

  clang::ASTContext &ast_;
  const clang::FunctionDecl *function_;
  std::map<const clang::VarDecl *, std::set<const clang::Stmt *>> writes_;
  // Writes through a pointer variable: `*p = ...`, `p->x = ...`, `p` handed
  // to a call that may write what it points to.
  std::map<const clang::VarDecl *, std::set<const clang::Stmt *>> pointee_writes_;
  std::set<const clang::FieldDecl *> member_writes_;
  mutable std::map<const clang::Stmt *, std::vector<std::vector<const clang::VarDecl *>>>
      exchange_groups_;
};

// The field that `write` sets of `var` (`var.field = ...`, `&var.field`;
// with `pointee`, `var->field = ...`), or empty when it writes the whole
// variable (or all that it points to).
std::string writtenField(const clang::Stmt &write, const clang::VarDecl &var,
                         bool pointee = false);

} // namespace gpurace::analyzer

#endif
