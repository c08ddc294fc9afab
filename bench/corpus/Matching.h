//===- Matching.h - reported races against expected ones --------*- C++ -*-===//
//
// Scores one corpus file: which expected races a report found, which it
// missed, and which reported pairs no annotation expects.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_BENCH_CORPUS_MATCHING_H
#define GPURACE_BENCH_CORPUS_MATCHING_H

#include "bench/corpus/CorpusAnnotations.h"
#include "gpurace/v1/runtime.pb.h"

#include <string>
#include <vector>

namespace gpurace::corpus {

// A reported race reduced to what the corpus annotates: its two lines and
// its class. Candidates of the analyzer and confirmed races of the runtime
// both become this.
struct ReportedRace {
  unsigned first_line = 0;
  unsigned second_line = 0;
  v1::RaceClass race_class = v1::RACE_CLASS_UNSPECIFIED;
};

struct FileScore {
  // Expected races (pairs and divergent barriers) in the file.
  unsigned expected = 0;
  unsigned found = 0;
  unsigned false_negatives = 0;
  // Reported line pairs (or divergent barriers) no annotation expects,
  // each counted once whatever classes it was reported with.
  unsigned false_positives = 0;
  // Human-readable lines: "missed a (12, 14) intra-block", "unexpected ...".
  std::vector<std::string> details;
};

std::vector<ReportedRace> fromAnalysis(const v1::AnalysisResult &result);

std::vector<ReportedRace>
fromRuntime(const std::vector<v1::RuntimeReport> &reports);

FileScore scoreFile(const CorpusFile &file,
                    const std::vector<ReportedRace> &reported);

} // namespace gpurace::corpus

#endif
