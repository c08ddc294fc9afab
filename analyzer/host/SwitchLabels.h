//===- SwitchLabels.h - the case labels of a host switch ---------*- C++ -*-===//
//
// Which labels head each statement of a switch's body, read once for the
// host facts of a launch under a case (HostSwitches.cpp) and for the
// values a switch assigns on its paths (ReachingDefinitions.cpp). Only
// switches whose labels all head statements of the body with constant
// values are read: a label nested deeper (Duff's device) or a GNU range
// leaves the switch unread.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_HOST_SWITCHLABELS_H
#define GPURACE_ANALYZER_HOST_SWITCHLABELS_H

#include <cstdint>
#include <optional>
#include <set>
#include <vector>

namespace clang {
class ASTContext;
class CompoundStmt;
class Stmt;
class SwitchStmt;
} // namespace clang

namespace gpurace::analyzer {

// The labels that enter a switch at one statement of its body.
struct EntryLabels {
  std::set<int64_t> values;
  bool is_default = false;
  bool empty() const { return values.empty() && !is_default; }
};

struct SwitchLabels {
  const clang::CompoundStmt *body = nullptr;
  // Per statement of the body, in order: the statement without its labels
  // and the labels that head it.
  std::vector<const clang::Stmt *> statements;
  std::vector<EntryLabels> entries;
  // Every case label's value, for what `default` means.
  std::set<int64_t> all_values;
  bool has_default = false;
};

std::optional<SwitchLabels> readSwitchLabels(const clang::SwitchStmt &switch_stmt,
                                             clang::ASTContext &ast);

} // namespace gpurace::analyzer

#endif
