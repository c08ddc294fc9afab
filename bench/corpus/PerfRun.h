//===- PerfRun.h - the corpus's perf expectations against gpurace -*- C++ -*-===//
//
// For a corpus file with `expect-perf` annotations: runs `gpurace analyze`
// alone and with `--perf --all`, timing both, and matches every expected
// cost against the perf finding of its line and kind. A perf finding above
// the threshold on a line that expects none is a false alarm.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_BENCH_CORPUS_PERFRUN_H
#define GPURACE_BENCH_CORPUS_PERFRUN_H

#include "bench/corpus/CorpusAnnotations.h"

#include <algorithm>
#include <string>
#include <vector>

namespace gpurace::corpus {

struct PerfRow {
  ExpectedPerf expected;
  bool found = false;
  unsigned cost = 0, best = 0;
  bool proved = false;
  // The finding's free conditions, as `expect-perf` writes them.
  std::vector<std::string> free_when;
  bool matches() const {
    return found && cost == expected.cost && best == expected.best &&
           (expected.free_when.empty() ||
            std::find(free_when.begin(), free_when.end(), expected.free_when) != free_when.end());
  }
};

struct PerfFileRun {
  std::vector<PerfRow> rows;
  // Findings shown by default on lines with no expectation of their kind.
  std::vector<std::string> unexpected;
  std::string error;
  double seconds_plain = 0, seconds_perf = 0;
};

// Matches the expectations of `file` against `result` (from --perf --all).
void matchPerf(const CorpusFile &file, const v1::AnalysisResult &result, PerfFileRun &run);

PerfFileRun runPerfExpectations(const std::string &gpurace, const CorpusFile &file);

} // namespace gpurace::corpus

#endif
