#include "analyzer/host/SwitchLabels.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>

namespace gpurace::analyzer {

using clang::dyn_cast;
using clang::dyn_cast_or_null;

namespace {

std::optional<int64_t> labelValue(const clang::CaseStmt &label, clang::ASTContext &ast) {
  clang::Expr::EvalResult value;
  if (label.caseStmtIsGNURange() || label.getLHS()->isValueDependent() ||
      !label.getLHS()->EvaluateAsInt(value, ast))
    return std::nullopt;
  return value.Val.getInt().getExtValue();
}

} // namespace

std::optional<SwitchLabels> readSwitchLabels(const clang::SwitchStmt &switch_stmt,
                                             clang::ASTContext &ast) {
  SwitchLabels out;
  out.body = dyn_cast_or_null<clang::CompoundStmt>(switch_stmt.getBody());
  if (!out.body)
    return std::nullopt;
  std::set<const clang::SwitchCase *> read;
  for (const clang::Stmt *stmt : out.body->body()) {
    EntryLabels entry;
    while (auto *label = dyn_cast_or_null<clang::SwitchCase>(stmt)) {
      read.insert(label);
      if (auto *one = dyn_cast<clang::CaseStmt>(label)) {
        std::optional<int64_t> value = labelValue(*one, ast);
        if (!value)
          return std::nullopt;
        entry.values.insert(*value);
        out.all_values.insert(*value);
      } else {
        entry.is_default = out.has_default = true;
      }
      stmt = label->getSubStmt();
    }
    out.statements.push_back(stmt);
    out.entries.push_back(std::move(entry));
  }
  for (const clang::SwitchCase *label = switch_stmt.getSwitchCaseList(); label;
       label = label->getNextSwitchCase())
    if (!read.count(label))
      return std::nullopt;
  return out;
}

} // namespace gpurace::analyzer
