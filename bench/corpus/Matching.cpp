//===- Matching.cpp - reported races against expected ones ----------------===//
#include "bench/corpus/Matching.h"

#include <algorithm>
#include <set>
#include <utility>

namespace gpurace::corpus {

namespace {

using LinePair = std::pair<unsigned, unsigned>;

LinePair unordered(unsigned a, unsigned b) { return {std::min(a, b), std::max(a, b)}; }

LinePair linesOf(const ExpectedRace &race) {
  unsigned first = race.lines.front();
  unsigned second = race.lines.size() > 1 ? race.lines[1] : first;
  return unordered(first, second);
}

bool isDivergence(const ReportedRace &race) {
  return race.race_class == v1::RACE_CLASS_BARRIER_DIVERGENCE;
}

// A pair counts as found in the annotated class; for scoped races the
// annotation says synchronization is present but too narrow, and any class
// reported for the pair counts.
bool matches(const ExpectedRace &expected, const ReportedRace &reported) {
  if (isDivergence(reported))
    return false;
  if (linesOf(expected) !=
      unordered(reported.first_line, reported.second_line))
    return false;
  return expected.race_class == v1::RACE_CLASS_SCOPED ||
         expected.race_class == reported.race_class;
}

std::string describe(const LinePair &lines) {
  return "(" + std::to_string(lines.first) + ", " +
         std::to_string(lines.second) + ")";
}

void scoreRaces(const CorpusFile &file,
                const std::vector<ReportedRace> &reported, FileScore &score) {
  for (const ExpectedRace &expected : file.races) {
    bool found = std::any_of(reported.begin(), reported.end(),
                             [&](const auto &r) { return matches(expected, r); });
    ++(found ? score.found : score.false_negatives);
    if (!found)
      score.details.push_back("missed " + expected.id + " " +
                              describe(linesOf(expected)) + " " +
                              v1::RaceClass_Name(expected.race_class));
  }
}

void scoreDivergences(const CorpusFile &file,
                      const std::vector<ReportedRace> &reported,
                      FileScore &score) {
  for (unsigned line : file.divergences) {
    bool found = std::any_of(reported.begin(), reported.end(), [&](const auto &r) {
      return isDivergence(r) && r.first_line == line;
    });
    ++(found ? score.found : score.false_negatives);
    if (!found)
      score.details.push_back("missed barrier divergence at line " +
                              std::to_string(line));
  }
}

// A reported pair is expected when some annotation names its lines, in any
// class: a pair that races in more than one class is annotated with one.
bool isExpected(const CorpusFile &file, const ReportedRace &race) {
  if (isDivergence(race))
    return std::count(file.divergences.begin(), file.divergences.end(),
                      race.first_line) > 0;
  LinePair lines = unordered(race.first_line, race.second_line);
  return std::any_of(file.races.begin(), file.races.end(),
                     [&](const auto &e) { return linesOf(e) == lines; });
}

void scoreUnexpected(const CorpusFile &file,
                     const std::vector<ReportedRace> &reported,
                     FileScore &score) {
  std::set<std::pair<bool, LinePair>> unexpected;
  for (const ReportedRace &race : reported) {
    if (isExpected(file, race))
      continue;
    LinePair lines = isDivergence(race)
                         ? LinePair{race.first_line, race.first_line}
                         : unordered(race.first_line, race.second_line);
    if (unexpected.insert({isDivergence(race), lines}).second)
      score.details.push_back(
          std::string("unexpected ") +
          (isDivergence(race) ? "barrier divergence " : "race ") +
          describe(lines) + " " + v1::RaceClass_Name(race.race_class));
  }
  score.false_positives = unexpected.size();
}

} // namespace

std::vector<ReportedRace> fromAnalysis(const v1::AnalysisResult &result) {
  std::vector<ReportedRace> races;
  for (const v1::RaceCandidate &candidate : result.candidates())
    races.push_back({candidate.first().location().line(),
                     candidate.second().location().line(),
                     candidate.race_class()});
  return races;
}

std::vector<ReportedRace>
fromRuntime(const std::vector<v1::RuntimeReport> &reports) {
  std::vector<ReportedRace> races;
  for (const v1::RuntimeReport &report : reports)
    for (const v1::ObservedRace &race : report.races())
      races.push_back({race.first().location().line(),
                       race.second().location().line(), race.race_class()});
  return races;
}

FileScore scoreFile(const CorpusFile &file,
                    const std::vector<ReportedRace> &reported) {
  FileScore score;
  score.expected = file.races.size() + file.divergences.size();
  scoreRaces(file, reported, score);
  scoreDivergences(file, reported, score);
  scoreUnexpected(file, reported, score);
  return score;
}

} // namespace gpurace::corpus
