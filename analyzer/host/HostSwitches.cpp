// The fact a `switch` around a launch gives: the launch runs only for the
// values of the labels control can reach it from. Launch wrappers pick a
// kernel instantiation by block size this way
// (`switch (threads) { case 512: k<512><<<g, threads>>>(...); break; ... }`),
// and without the fact the block size of every case is any value.
#include "analyzer/host/HostValues.h"

#include "analyzer/host/HostExpressions.h"
#include "analyzer/model/SourceLocations.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>

#include <optional>
#include <set>
#include <string>

namespace gpurace::analyzer {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;

namespace {

// Whether control never leaves `stmt` at its end (it breaks out of the
// switch, returns, jumps or throws): the next label is not reached from it.
bool endsControlFlow(const clang::Stmt *stmt) {
  if (!stmt)
    return false;
  if (isa<clang::BreakStmt, clang::ReturnStmt, clang::ContinueStmt, clang::GotoStmt,
          clang::CXXThrowExpr>(stmt))
    return true;
  if (auto *block = dyn_cast<clang::CompoundStmt>(stmt))
    return !block->body_empty() && endsControlFlow(block->body_back());
  if (auto *call = dyn_cast<clang::CallExpr>(stmt))
    if (const clang::FunctionDecl *callee = call->getDirectCallee())
      return neverReturns(*callee);
  return false;
}

// The labels a switch reaches a statement of its body from.
struct ReachingLabels {
  std::set<int64_t> values;
  bool from_default = false;
};

} // namespace

void HostValues::addSwitchFacts(const clang::SwitchStmt &switch_stmt,
                                const clang::Stmt &element, std::vector<Fact> &facts) {
  auto *body = dyn_cast_or_null<clang::CompoundStmt>(switch_stmt.getBody());
  if (!body)
    return;
  auto labelValue = [&](const clang::CaseStmt &label) -> std::optional<int64_t> {
    clang::Expr::EvalResult value;
    if (label.caseStmtIsGNURange() || label.getLHS()->isValueDependent() ||
        !label.getLHS()->EvaluateAsInt(value, ast_))
      return std::nullopt;
    return value.Val.getInt().getExtValue();
  };
  // Every label must head a statement of the body, with a value read: a
  // label nested deeper (Duff's device) or a range is not followed.
  std::set<const clang::SwitchCase *> top_level;
  for (const clang::Stmt *stmt : body->body())
    for (auto *label = dyn_cast<clang::SwitchCase>(stmt); label;
         label = dyn_cast<clang::SwitchCase>(label->getSubStmt()))
      top_level.insert(label);
  std::set<int64_t> all_labels;
  for (const clang::SwitchCase *label = switch_stmt.getSwitchCaseList(); label;
       label = label->getNextSwitchCase()) {
    if (!top_level.count(label))
      return;
    if (auto *one = dyn_cast<clang::CaseStmt>(label)) {
      std::optional<int64_t> value = labelValue(*one);
      if (!value)
        return;
      all_labels.insert(*value);
    }
  }
  ReachingLabels reaching;
  bool found = false;
  for (const clang::Stmt *stmt : body->body()) {
    const clang::Stmt *inner = stmt;
    while (auto *label = dyn_cast<clang::SwitchCase>(inner)) {
      if (auto *one = dyn_cast<clang::CaseStmt>(label))
        reaching.values.insert(*labelValue(*one));
      else
        reaching.from_default = true;
      inner = label->getSubStmt();
    }
    if (stmt == &element) {
      found = true;
      break;
    }
    // Control past a statement that ends it enters the next one only
    // through that one's labels.
    if (endsControlFlow(inner)) {
      reaching.values.clear();
      reaching.from_default = false;
    }
  }
  if (!found || (reaching.values.empty() && !reaching.from_default))
    return;
  // The condition's value at the launch is what it was at the switch only
  // if the body does not change it on the way.
  std::vector<const clang::VarDecl *> tested;
  collectVars(switch_stmt.getCond(), tested);
  for (const clang::VarDecl *var : tested)
    if (changedBeforeLaunch(*body, *var))
      return;
  std::optional<z3::expr> condition = value(switch_stmt.getCond());
  if (!condition)
    return;
  std::string shown =
      sourceText(switch_stmt.getCond()->getSourceRange(), ast_.getSourceManager());
  z3::expr holds = symbols_.context().bool_val(false);
  std::string text;
  for (int64_t label : reaching.values) {
    holds = holds || *condition == arith_.constant(label, kInt64);
    text += (text.empty() ? "" : " or ") + shown + " == " + std::to_string(label);
  }
  if (reaching.from_default) {
    // `default` is every value no label names.
    z3::expr other = symbols_.context().bool_val(true);
    for (int64_t label : all_labels)
      if (!reaching.values.count(label))
        other = other && *condition != arith_.constant(label, kInt64);
    holds = holds || other;
    text += (text.empty() ? "" : " or ") + std::string("default");
  }
  facts.push_back(
      fact(holds, v1::HOST_FACT_KIND_ASSERT, "switch case: " + text, switch_stmt));
}

} // namespace gpurace::analyzer
