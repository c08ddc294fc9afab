#include "bench/corpus/PerfRun.h"

#include "bench/corpus/AnalyzerRun.h"

#include <chrono>

namespace gpurace::corpus {

namespace {

std::string kindName(v1::PerfKind kind) {
  return kind == v1::PERF_KIND_BANK_CONFLICT ? "banks" : "sectors";
}

} // namespace

void matchPerf(const CorpusFile &file, const v1::AnalysisResult &result, PerfFileRun &run) {
  for (const ExpectedPerf &expected : file.perf) {
    PerfRow row;
    row.expected = expected;
    for (const v1::PerfFinding &finding : result.perf_findings()) {
      if (finding.kind() != expected.kind || finding.site().location().line() != expected.line)
        continue;
      // Several accesses of one kind on a line (a read and a write of one
      // element) must all cost what the line expects.
      if (row.found && (finding.cost() != row.cost || finding.best() != row.best))
        row.cost = 0;
      else if (!row.found) {
        row.found = true;
        row.cost = finding.cost();
        row.best = finding.best();
        row.proved = finding.proved();
        for (const v1::FreeCondition &c : finding.free_when())
          row.free_when.push_back(c.name() + " = " + std::to_string(c.equals()));
      }
    }
    run.rows.push_back(row);
  }
  for (const v1::PerfFinding &finding : result.perf_findings()) {
    if (finding.proved() || finding.below_threshold())
      continue;
    bool expected = false;
    for (const ExpectedPerf &e : file.perf)
      expected |= e.kind == finding.kind() && e.line == finding.site().location().line();
    if (!expected)
      run.unexpected.push_back(file.path + ":" +
                               std::to_string(finding.site().location().line()) + ": " +
                               kindName(finding.kind()) + " " + std::to_string(finding.cost()) +
                               "/" + std::to_string(finding.best()));
  }
}

PerfFileRun runPerfExpectations(const std::string &gpurace, const CorpusFile &file) {
  PerfFileRun run;
  auto timed = [&](const std::vector<std::string> &flags, double &seconds) {
    auto started = std::chrono::steady_clock::now();
    AnalyzerOutcome outcome = runAnalyzer(gpurace, flags, file.path, file.companions);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return outcome;
  };
  AnalyzerOutcome plain = timed({}, run.seconds_plain);
  AnalyzerOutcome perf = timed({"--perf", "--all"}, run.seconds_perf);
  if (!plain.ok || !perf.ok) {
    run.error = !perf.ok ? perf.error : plain.error;
    return run;
  }
  matchPerf(file, perf.result, run);
  return run;
}

} // namespace gpurace::corpus
