//===- Repairer.h - `gpurace fix` as a library ------------------*- C++ -*-===//
//
// Repairs a program's findings one at a time, in rank order, each on top of
// the repairs accepted before it: the candidates of a finding are tried in
// turn, and one is accepted only when re-analyzing the edited program (the
// same front end, model and solver as `gpurace analyze`, on the edited text
// in memory) shows the finding gone, no finding that was not there before,
// and no new error. A change that removes several findings counts for all
// of them, so findings that share a missing barrier get one.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_REPAIR_REPAIRER_H
#define GPURACE_ANALYZER_REPAIR_REPAIRER_H

#include "analyzer/AnalyzeOptions.h"
#include "analyzer/repair/SourceEdits.h"

#include "gpurace/v1/analysis.pb.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpurace::analyzer {

struct RepairOutcome {
  v1::RaceCandidate finding;
  bool repaired = false;
  // The accepted change (a RepairCandidate kind), or empty when an earlier
  // finding's change removed this one too.
  std::string kind;
  std::string summary;
  // What the change needs beyond the edit (a cooperative launch).
  std::string prerequisite;
  // The fingerprint of the finding whose change removed this one.
  std::string repaired_with;
  // Why it could not be repaired.
  std::string reason;
  // Candidates re-analyzed for it.
  unsigned tried = 0;
  // The accepted change, in the file's text with the earlier outcomes'
  // changes applied.
  std::string file;
  std::vector<TextEdit> edits;
  std::string text_before;
  // The same change as edits of the file as analyzed; none when it edits
  // text that an earlier change inserted.
  std::optional<std::vector<TextEdit>> original_edits;
};

struct ProgramRepair {
  std::vector<RepairOutcome> outcomes;
  // Files with accepted changes: their text before and after.
  std::map<std::string, std::pair<std::string, std::string>> files;
  // The analysis of the program as it was.
  v1::AnalysisResult before;
  // Changes kept at first and taken out once later ones made them unneeded.
  unsigned changes_dropped = 0;
};

// Fails only when the program cannot be analyzed at all (no input, an
// unreadable compilation database).
bool repairProgram(const AnalyzeOptions &options, ProgramRepair &repair, std::string &error);

} // namespace gpurace::analyzer

#endif
