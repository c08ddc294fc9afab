//===- Analyzer.h - `gpurace analyze` as a library ---------------*- C++ -*-===//
//
// Analyzes files in parallel and assembles one AnalysisResult: ranked
// candidates (findings at or above the threshold first), race-freedom
// proofs that rest on host facts, per-file errors, and the
// instrumentation plan for the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_ANALYZER_H
#define GPURACE_ANALYZER_ANALYZER_H

#include "analyzer/AnalyzeOptions.h"
#include "analyzer/program/ProgramIndex.h"

#include "gpurace/v1/analysis.pb.h"

#include <functional>
#include <string>
#include <vector>

namespace gpurace::analyzer {

// Called after each file with (files done, files in all, the file).
using ProgressCallback =
    std::function<void(size_t done, size_t total, const std::string &file)>;

// Fails only when the inputs cannot be found (unreadable compilation
// database, no file to analyze); parse errors of single files are recorded
// in the result's `errors` and the other files are still analyzed.
bool analyze(const AnalyzeOptions &options, v1::AnalysisResult &result,
             std::string &error, const ProgressCallback &progress = {});

// The program's translation units: the files with their flags (from
// compile_commands.json and the command line), and the flags of theirs
// that were dropped as unknown.
bool programUnits(const AnalyzeOptions &options, std::vector<ProgramUnit> &units,
                  std::vector<std::string> &dropped, std::string &error);

// The headers to parse with: the CUDA toolkit's (--cuda-path or found), or
// gpurace's fallback declarations. Fails only when --cuda-path is no toolkit.
bool headerSetup(const AnalyzeOptions &options, HeaderSetup &headers, std::string &error);

// Whether a candidate counts as a finding under `min_score`.
bool isFinding(const v1::RaceCandidate &candidate, double min_score);

} // namespace gpurace::analyzer

#endif
