// The fact a `switch` around a launch gives: the launch runs only for the
// values of the labels control can reach it from. Launch wrappers pick a
// kernel instantiation by block size this way
// (`switch (threads) { case 512: k<512><<<g, threads>>>(...); break; ... }`),
// and without the fact the block size of every case is any value.
#include "analyzer/host/HostValues.h"

#include "analyzer/host/HostExpressions.h"
#include "analyzer/host/SwitchLabels.h"
#include "analyzer/model/SourceLocations.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

#include <string>

namespace gpurace::analyzer {

z3::expr HostValues::switchEntered(const z3::expr &condition, const EntryLabels &entry,
                                   const std::set<int64_t> &all_values) const {
  z3::expr entered = symbols_.context().bool_val(false);
  for (int64_t label : entry.values)
    entered = entered || condition == arith_.constant(label, kInt64);
  if (entry.is_default) {
    // `default` is every value no label names.
    z3::expr other = symbols_.context().bool_val(true);
    for (int64_t label : all_values)
      other = other && condition != arith_.constant(label, kInt64);
    entered = entered || other;
  }
  return entered;
}

void HostValues::addSwitchFacts(const clang::SwitchStmt &switch_stmt,
                                const clang::Stmt &element, std::vector<Fact> &facts) {
  std::optional<SwitchLabels> labels = readSwitchLabels(switch_stmt, ast_);
  if (!labels)
    return;
  // The labels that reach `element`: its own, and those of the statements
  // before it that control falls through from.
  EntryLabels reaching;
  bool found = false;
  for (size_t i = 0; i < labels->statements.size(); ++i) {
    reaching.values.insert(labels->entries[i].values.begin(), labels->entries[i].values.end());
    reaching.is_default |= labels->entries[i].is_default;
    if (labels->body->body_begin()[i] == &element) {
      found = true;
      break;
    }
    if (labels->statements[i] && terminates(*labels->statements[i]))
      reaching = EntryLabels();
  }
  if (!found || reaching.empty())
    return;
  // The condition's value at the launch is what it was at the switch only
  // if the body does not change it on the way.
  std::vector<const clang::VarDecl *> tested;
  collectVars(switch_stmt.getCond(), tested);
  for (const clang::VarDecl *var : tested)
    if (changedBeforeLaunch(*labels->body, *var))
      return;
  std::optional<z3::expr> condition = value(switch_stmt.getCond());
  if (!condition)
    return;
  std::string shown =
      sourceText(switch_stmt.getCond()->getSourceRange(), ast_.getSourceManager());
  std::string text;
  for (int64_t label : reaching.values)
    text += (text.empty() ? "" : " or ") + shown + " == " + std::to_string(label);
  if (reaching.is_default)
    text += (text.empty() ? "" : " or ") + std::string("default");
  facts.push_back(fact(switchEntered(*condition, reaching, labels->all_values),
                       v1::HOST_FACT_KIND_ASSERT, "switch case: " + text, switch_stmt));
}

} // namespace gpurace::analyzer
