#include "analyzer/repair/RepairMessages.h"

#include <map>

namespace gpurace::analyzer {

namespace {

v1::RepairKind kindOf(const RepairOutcome &outcome) {
  if (!outcome.repaired)
    return v1::REPAIR_KIND_UNSPECIFIED;
  static const std::map<std::string, v1::RepairKind> kKinds = {
      {"atomic", v1::REPAIR_KIND_ATOMIC},       {"barrier", v1::REPAIR_KIND_BARRIER},
      {"scope", v1::REPAIR_KIND_SCOPE},         {"fence", v1::REPAIR_KIND_FENCE},
      {"grid-sync", v1::REPAIR_KIND_GRID_SYNC}, {"barrier-moved", v1::REPAIR_KIND_BARRIER_MOVED},
  };
  auto kind = kKinds.find(outcome.kind);
  return kind == kKinds.end() ? v1::REPAIR_KIND_SHARED : kind->second;
}

v1::TextReplacement replacementOf(const std::string &file, const std::string &text,
                                  const TextEdit &edit) {
  v1::TextReplacement out;
  unsigned line = 0, column = 0, end_line = 0, end_column = 0;
  lineAndColumn(text, edit.offset, line, column);
  lineAndColumn(text, edit.offset + edit.length, end_line, end_column);
  out.mutable_location()->set_file(file);
  out.mutable_location()->set_line(line);
  out.mutable_location()->set_column(column);
  out.mutable_location()->set_end_line(end_line);
  out.mutable_location()->set_end_column(end_column);
  out.set_offset(edit.offset);
  out.set_length(edit.length);
  out.set_new_text(edit.text);
  return out;
}

} // namespace

std::vector<v1::Repair> repairMessages(const ProgramRepair &repair) {
  std::vector<v1::Repair> out;
  for (const RepairOutcome &outcome : repair.outcomes) {
    v1::Repair message;
    message.set_finding_fingerprint(outcome.finding.fingerprint());
    message.set_kind(kindOf(outcome));
    message.set_verified(outcome.repaired);
    message.set_summary(outcome.summary);
    message.set_repaired_with(outcome.repaired_with);
    message.set_unrepaired_reason(outcome.reason);
    message.set_candidates_tried(outcome.tried);
    message.set_prerequisite(outcome.prerequisite);
    if (!outcome.edits.empty()) {
      auto file = repair.files.find(outcome.file);
      bool of_original = outcome.original_edits && file != repair.files.end();
      const std::string &text = of_original ? file->second.first : outcome.text_before;
      const std::vector<TextEdit> &edits = of_original ? *outcome.original_edits : outcome.edits;
      message.set_builds_on_earlier(!of_original);
      for (const TextEdit &edit : edits)
        *message.add_edits() = replacementOf(outcome.file, text, edit);
      std::string after;
      if (applyEdits(text, edits, after))
        message.set_diff(unifiedDiff(outcome.file, text, after));
    }
    out.push_back(std::move(message));
  }
  return out;
}

v1::RepairResult repairResult(const ProgramRepair &repair) {
  v1::RepairResult result;
  for (v1::Repair &message : repairMessages(repair))
    *result.add_repairs() = std::move(message);
  for (const auto &[file, texts] : repair.files)
    (*result.mutable_diffs())[file] = unifiedDiff(file, texts.first, texts.second);
  result.set_changes_dropped(repair.changes_dropped);
  return result;
}

void attachRepairs(const ProgramRepair &repair, v1::AnalysisResult &result) {
  std::map<std::string, v1::Repair> by_fingerprint;
  for (v1::Repair &message : repairMessages(repair))
    by_fingerprint.emplace(message.finding_fingerprint(), std::move(message));
  for (v1::RaceCandidate &candidate : *result.mutable_candidates())
    if (auto repair_of = by_fingerprint.find(candidate.fingerprint());
        repair_of != by_fingerprint.end())
      *candidate.mutable_repair() = repair_of->second;
}

} // namespace gpurace::analyzer
