//===- Sarif.h - SARIF 2.1.0 for code scanning ------------------*- C++ -*-===//
#ifndef GPURACE_ANALYZER_REPORT_SARIF_H
#define GPURACE_ANALYZER_REPORT_SARIF_H

#include "gpurace/v1/analysis.pb.h"

#include <string>

namespace gpurace::analyzer {

// One run with a rule per race class and a result per candidate: the first
// access as the location, the second in relatedLocations, and a codeFlow
// with one threadFlow per racing thread. Candidates below `min_score` are
// included only with `include_below_threshold`, at level "note". With a
// `source_root`, relative file URIs are anchored at SRCROOT, which the run
// records as that directory.
std::string toSarif(const v1::AnalysisResult &result, double min_score,
                    bool include_below_threshold,
                    const std::string &source_root = "");

} // namespace gpurace::analyzer

#endif
