//===- RepairRun.cpp - `gpurace fix` on one corpus program ----------------===//
#include "bench/corpus/RepairRun.h"

#include "bench/corpus/AnalyzerRun.h"
#include "proto/JsonCodec.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>

namespace fs = std::filesystem;

namespace gpurace::corpus {

namespace {

// A private folder, removed with the object.
class TempFolder {
public:
  TempFolder() {
    char name[] = "/tmp/gpurace-repair-XXXXXX";
    if (mkdtemp(name))
      path_ = name;
  }
  ~TempFolder() {
    std::error_code ignored;
    if (!path_.empty())
      fs::remove_all(path_, ignored);
  }
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

std::string firstLine(const std::string &text) {
  return text.substr(0, text.find('\n'));
}

// The findings of the repaired copy that fix said it repaired.
std::string checkReanalysis(const std::string &gpurace, const std::string &copy,
                            const std::vector<std::string> &companions,
                            const v1::RepairResult &repairs) {
  AnalyzerOutcome after = runAnalyzer(gpurace, {}, copy, companions);
  if (!after.ok)
    return "re-analysis of the repaired copy: " + after.error;
  std::set<std::string> unrepaired;
  for (const v1::Repair &repair : repairs.repairs())
    if (!repair.verified())
      unrepaired.insert(repair.finding_fingerprint());
  for (const v1::RaceCandidate &candidate : after.result.candidates())
    if (!candidate.below_threshold() && !unrepaired.count(candidate.fingerprint()))
      return "the repaired copy still reports a race at line " +
             std::to_string(candidate.first().location().line()) + " (" +
             candidate.first().expression() + ") that fix did not leave unrepaired";
  return "";
}

std::string checkCompiles(const std::string &nvcc, const std::string &copy, bool relocatable) {
  std::vector<std::string> argv = {nvcc, "-arch=sm_90", "-c", "-o", "/dev/null", copy};
  if (relocatable)
    argv.push_back("-rdc=true");
  Capture compiled = capture(argv);
  if (compiled.exit_code != 0)
    return "the repaired copy does not compile: " + firstLine(compiled.err + compiled.out);
  return "";
}

} // namespace

RepairOutcome repairCopy(const std::string &gpurace, const std::string &nvcc,
                         const std::string &file, const std::vector<std::string> &companions) {
  RepairOutcome outcome;
  TempFolder folder;
  std::error_code error;
  std::string copy = folder.path() + "/" + fs::path(file).filename().string();
  if (folder.path().empty() || !fs::copy_file(file, copy, error)) {
    outcome.error = "cannot copy the program to a temporary folder";
    return outcome;
  }
  std::vector<std::string> argv = {gpurace, "fix", "--apply", "--format=json", "-j1", copy};
  std::vector<std::string> others;
  for (const std::string &companion : companions)
    others.push_back(fs::absolute(companion).string());
  argv.insert(argv.end(), others.begin(), others.end());
  auto started = std::chrono::steady_clock::now();
  Capture fixed = capture(argv);
  outcome.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::string parse_error;
  if ((fixed.exit_code != 0 && fixed.exit_code != 2) ||
      !fromJson(fixed.out, outcome.result, parse_error)) {
    outcome.error = "fix exited with " + std::to_string(fixed.exit_code) + ": " +
                    firstLine(fixed.err + parse_error);
    return outcome;
  }
  outcome.error = checkReanalysis(gpurace, copy, others, outcome.result);
  if (outcome.error.empty() && !nvcc.empty() && outcome.result.diffs_size() > 0) {
    std::ifstream in(copy);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    outcome.error = checkCompiles(nvcc, copy,
                                  !companions.empty() || text.find("this_grid") != std::string::npos);
  }
  return outcome;
}

} // namespace gpurace::corpus
