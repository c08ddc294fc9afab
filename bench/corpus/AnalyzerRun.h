//===- AnalyzerRun.h - run `gpurace analyze` on one corpus file -*- C++ -*-===//
#ifndef GPURACE_BENCH_CORPUS_ANALYZERRUN_H
#define GPURACE_BENCH_CORPUS_ANALYZERRUN_H

#include "gpurace/v1/analysis.pb.h"

#include <string>
#include <vector>

namespace gpurace::corpus {

struct AnalyzerOutcome {
  bool ok = false;
  v1::AnalysisResult result;
  // Why the run counts as a tool error: the exit status, the analyzer's
  // own message or the JSON parse error.
  std::string error;
};

// Runs `gpurace analyze --format=json <extra_flags> <file>` and reads its
// AnalysisResult. Exit 0 (no finding) and 2 (findings) are results; any
// other exit, or output that is not an AnalysisResult, is a tool error.
AnalyzerOutcome runAnalyzer(const std::string &gpurace,
                            const std::vector<std::string> &extra_flags,
                            const std::string &file,
                            const std::vector<std::string> &companions = {});

struct Capture {
  int exit_code = -1;
  std::string out, err;
};

// Runs argv (argv[0] a path) with stdout and stderr captured through files
// of a private temporary directory.
Capture capture(const std::vector<std::string> &argv);

// Interprets what one analyzer run printed; split out so that it can be
// tested without a process.
AnalyzerOutcome interpretAnalyzerOutput(int exit_code, const std::string &out,
                                        const std::string &err);

} // namespace gpurace::corpus

#endif
