#include "analyzer/repair/Repairer.h"

#include "analyzer/Analyzer.h"
#include "analyzer/repair/ProgramUnderRepair.h"
#include "analyzer/repair/RepairCandidates.h"

#include <llvm/Support/FileSystem.h>

#include <algorithm>
#include <set>
#include <sstream>

namespace gpurace::analyzer {

namespace {

// A verification re-analyzes the whole program: bounded per finding.
constexpr unsigned kMaxCandidatesPerFinding = 8;

std::string absolutePath(const std::string &path) {
  llvm::SmallString<256> absolute(path);
  llvm::sys::fs::make_absolute(absolute);
  return std::string(absolute);
}

std::set<std::string> findingsOf(const v1::AnalysisResult &result, double min_score) {
  std::set<std::string> out;
  for (const v1::RaceCandidate &candidate : result.candidates())
    if (isFinding(candidate, min_score))
      out.insert(candidate.fingerprint());
  return out;
}

class ProgramRepairer {
public:
  ProgramRepairer(const AnalyzeOptions &options, ProgramRepair &repair)
      : options_(options), repair_(repair) {}

  bool run(std::string &error) {
    ProgramUnderRepair program;
    if (!loadProgram(options_, program, error))
      return false;
    units_ = std::move(program.units);
    headers_ = std::move(program.headers);
    repair_.before = std::move(program.analysis);
    errors_before_ = repair_.before.errors_size();
    findings_ = findingsOf(repair_.before, options_.min_score);
    current_ = repair_.before;
    for (const v1::RaceCandidate &candidate : inRepairOrder(repair_.before))
      repair_.outcomes.push_back(repairOne(candidate));
    dropChangesMadeUnneeded();
    for (const auto &[unit, text] : texts_)
      if (text != originals_[unit])
        repair_.files[units_[unit].file] = {originals_[unit], text};
    return true;
  }

private:
  // Findings in rank order, except that races between warps of a block
  // come before races between lanes of a warp: the block barrier that
  // repairs the first repairs the second too.
  std::vector<v1::RaceCandidate> inRepairOrder(const v1::AnalysisResult &result) const {
    std::vector<v1::RaceCandidate> findings;
    for (const v1::RaceCandidate &candidate : result.candidates())
      if (isFinding(candidate, options_.min_score))
        findings.push_back(candidate);
    std::stable_sort(findings.begin(), findings.end(), [](const auto &a, const auto &b) {
      auto late = [](const v1::RaceCandidate &c) {
        return c.race_class() == v1::RACE_CLASS_INTRA_WARP ||
               c.race_class() == v1::RACE_CLASS_BARRIER_DIVERGENCE;
      };
      return !late(a) && late(b);
    });
    return findings;
  }

  // The finding as the latest analysis places it: earlier repairs may have
  // moved its lines.
  v1::RaceCandidate currentOf(const v1::RaceCandidate &finding) const {
    for (const v1::RaceCandidate &candidate : current_.candidates())
      if (candidate.fingerprint() == finding.fingerprint())
        return candidate;
    return finding;
  }

  RepairOutcome repairOne(const v1::RaceCandidate &original) {
    RepairOutcome outcome;
    outcome.finding = original;
    if (!findings_.count(original.fingerprint())) {
      outcome.repaired = true;
      outcome.repaired_with = removed_by_[original.fingerprint()];
      return outcome;
    }
    v1::RaceCandidate finding = currentOf(original);
    std::optional<size_t> unit = unitOf(finding.first().location().file());
    if (!unit || !loadText(*unit)) {
      outcome.reason = "the file of the accesses is not one of the analyzed files";
      return outcome;
    }
    ParsedSource parsed = parseDeviceSide(units_[*unit], headers_, texts_[*unit]);
    if (!parsed.context()) {
      outcome.reason = "the file does not parse on the device side";
      return outcome;
    }
    CandidateSearch search = repairCandidates(finding, finding.first().location().file(),
                                              texts_[*unit], *parsed.context());
    std::vector<std::string> rejected;
    for (const RepairCandidate &candidate : search.candidates) {
      if (outcome.tried == kMaxCandidatesPerFinding)
        break;
      ++outcome.tried;
      std::string edited;
      if (!applyEdits(texts_[*unit], candidate.edits, edited))
        continue;
      std::string why_not;
      if (verify(*unit, edited, finding, why_not)) {
        outcome.file = units_[*unit].file;
        outcome.edits = candidate.edits;
        outcome.text_before = texts_[*unit];
        outcome.original_edits = editsBefore(candidate.edits, history_[*unit]);
        history_[*unit].push_back(candidate.edits);
        texts_[*unit] = edited;
        outcome.repaired = true;
        outcome.kind = candidate.kind;
        outcome.summary = candidate.summary;
        outcome.prerequisite = candidate.prerequisite;
        return outcome;
      }
      rejected.push_back(candidate.summary + " (" + why_not + ")");
    }
    if (search.candidates.empty()) {
      outcome.reason = search.none_because;
      return outcome;
    }
    std::ostringstream reason;
    reason << "no change removes it without another finding: tried ";
    for (size_t i = 0; i < rejected.size(); ++i)
      reason << (i ? "; " : "") << rejected[i];
    outcome.reason = reason.str();
    return outcome;
  }

  // Analyzes the program with `texts` as its units' texts; false, and why,
  // when that fails or brings an error the program did not have.
  bool analyzeTexts(const std::map<size_t, std::string> &texts, v1::AnalysisResult &after,
                    std::string &why_not) const {
    AnalyzeOptions options = options_;
    options.replaced_contents.clear();
    for (const auto &[unit, text] : texts)
      options.replaced_contents[units_[unit].file] = text;
    std::string error;
    if (!analyze(options, after, error)) {
      why_not = error;
      return false;
    }
    if (after.errors_size() > errors_before_) {
      why_not = "the edited file has an error: " + after.errors(0).message();
      return false;
    }
    return true;
  }

  // Re-analyzes the program with `edited` as the unit's text.
  bool verify(size_t unit, const std::string &edited, const v1::RaceCandidate &finding,
              std::string &why_not) {
    std::map<size_t, std::string> texts = texts_;
    texts[unit] = edited;
    v1::AnalysisResult after;
    if (!analyzeTexts(texts, after, why_not))
      return false;
    std::set<std::string> remaining = findingsOf(after, options_.min_score);
    if (remaining.count(finding.fingerprint())) {
      why_not = "the race remains";
      return false;
    }
    for (const v1::RaceCandidate &candidate : after.candidates())
      if (remaining.count(candidate.fingerprint()) && !findings_.count(candidate.fingerprint())) {
        why_not = "it brings a new finding at line " +
                  std::to_string(candidate.first().location().line()) + " (" +
                  candidate.first().expression() + ")";
        return false;
      }
    for (const std::string &fingerprint : findings_)
      if (!remaining.count(fingerprint))
        removed_by_[fingerprint] = finding.fingerprint();
    findings_ = std::move(remaining);
    current_ = std::move(after);
    return true;
  }

  // Greedy repair in rank order can keep a change that a later one made
  // unneeded (GPURepair keeps a minimal set of barriers). Each kept change
  // but the last is taken out in turn, and stays out when the program
  // without it has no finding that it had with it.
  void dropChangesMadeUnneeded() {
    std::vector<size_t> changes;
    for (size_t i = 0; i < repair_.outcomes.size(); ++i)
      if (!repair_.outcomes[i].edits.empty()) {
        if (!repair_.outcomes[i].original_edits || !unitOf(repair_.outcomes[i].file))
          return; // a change builds on another: they stand or fall together
        changes.push_back(i);
      }
    std::set<size_t> kept(changes.begin(), changes.end());
    for (size_t c = 0; c + 1 < changes.size(); ++c) {
      kept.erase(changes[c]);
      std::map<size_t, std::string> texts;
      v1::AnalysisResult after;
      std::string why_not;
      if (textsWith(kept, texts) && analyzeTexts(texts, after, why_not) &&
          subsetOf(findingsOf(after, options_.min_score), findings_)) {
        RepairOutcome &dropped = repair_.outcomes[changes[c]];
        // The latest change kept removes it, with the others.
        std::string by = repair_.outcomes[*kept.rbegin()].finding.fingerprint();
        for (RepairOutcome &outcome : repair_.outcomes)
          if (outcome.repaired_with == dropped.finding.fingerprint())
            outcome.repaired_with = by;
        RepairOutcome shared;
        shared.finding = dropped.finding;
        shared.repaired = true;
        shared.repaired_with = by;
        shared.tried = dropped.tried;
        dropped = std::move(shared);
        texts_ = std::move(texts);
        findings_ = findingsOf(after, options_.min_score);
        current_ = std::move(after);
        ++repair_.changes_dropped;
      } else {
        kept.insert(changes[c]);
      }
    }
  }

  // Each analyzed unit's original text with the `kept` outcomes' changes.
  bool textsWith(const std::set<size_t> &kept, std::map<size_t, std::string> &texts) const {
    std::map<size_t, std::vector<TextEdit>> edits;
    for (size_t i : kept)
      for (const TextEdit &edit : *repair_.outcomes[i].original_edits)
        edits[*unitOf(repair_.outcomes[i].file)].push_back(edit);
    for (const auto &[unit, original] : originals_)
      if (!applyEdits(original, edits[unit], texts[unit]))
        return false;
    return true;
  }

  static bool subsetOf(const std::set<std::string> &some, const std::set<std::string> &all) {
    return std::includes(all.begin(), all.end(), some.begin(), some.end());
  }

  std::optional<size_t> unitOf(const std::string &file) const {
    std::string wanted = absolutePath(file);
    for (size_t i = 0; i < units_.size(); ++i)
      if (absolutePath(units_[i].file) == wanted)
        return i;
    return std::nullopt;
  }

  bool loadText(size_t unit) {
    if (texts_.count(unit))
      return true;
    std::string text;
    if (!readSourceText(units_[unit].file, text))
      return false;
    originals_[unit] = texts_[unit] = text;
    return true;
  }

  const AnalyzeOptions &options_;
  ProgramRepair &repair_;
  std::vector<ProgramUnit> units_;
  HeaderSetup headers_;
  int errors_before_ = 0;
  std::set<std::string> findings_;
  // The analysis of the program with the accepted repairs.
  v1::AnalysisResult current_;
  std::map<std::string, std::string> removed_by_;
  std::map<size_t, std::string> originals_, texts_;
  // Each unit's accepted changes, in order.
  std::map<size_t, std::vector<std::vector<TextEdit>>> history_;
};

} // namespace

bool repairProgram(const AnalyzeOptions &options, ProgramRepair &repair, std::string &error) {
  return ProgramRepairer(options, repair).run(error);
}

} // namespace gpurace::analyzer
