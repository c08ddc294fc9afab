//===- DynamicRun.h - the dynamic column on the CPU harness -----*- C++ -*-===//
//
// Confirms one corpus file's static findings dynamically without a GPU: the
// host-facts analysis is the plan, the whole program runs on the CPU
// harness (runtime/harness/HarnessRun.h), and every launch's RuntimeReport
// is written as DIR/<category>/<stem>.<launch>.json, where
// `gpurace-corpus-score --runtime-reports DIR` reads it.
//
// A file whose analysis flagged nothing has nothing to confirm: it gets one
// report with checking disabled and that reason, so the dynamic column
// counts it with no race. A file the harness cannot run gets no report and
// is listed with the reason.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_BENCH_CORPUS_DYNAMICRUN_H
#define GPURACE_BENCH_CORPUS_DYNAMICRUN_H

#include "bench/corpus/CorpusAnnotations.h"

#include "gpurace/v1/analysis.pb.h"

#include <string>
#include <vector>

namespace gpurace::corpus {

struct DynamicOptions {
  std::string gpurace;
  std::string compiler;
  std::string source_dir;
  std::string reports_dir;
  std::vector<std::string> env;
  unsigned timeout_s = 120;
};

struct DynamicResult {
  enum Kind { Ran, NothingPlanned, Skipped, Failed } kind = Failed;
  std::string reason;
  size_t launches = 0;
};

DynamicResult runDynamic(const CorpusFile &file, const v1::AnalysisResult &analysis,
                         const DynamicOptions &options);

// "ran", "nothing planned", "skipped", "failed".
std::string kindName(DynamicResult::Kind kind);

} // namespace gpurace::corpus

#endif
