//===- TextReport.h - clang-style diagnostics -------------------*- C++ -*-===//
//
// `file:line:col: warning: <message> [gpurace-<class>]`, the source line
// with a caret, a note at the other access and a note with the witness:
// the shape editors and CI parse.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_REPORT_TEXTREPORT_H
#define GPURACE_ANALYZER_REPORT_TEXTREPORT_H

#include "gpurace/v1/analysis.pb.h"

#include <ostream>

namespace gpurace::analyzer {

struct TextReportOptions {
  bool color = false;
  bool include_below_threshold = false;
  double min_score = 0.5;
  // Also write, for each pair proved race-free only thanks to host facts,
  // the facts it relies on.
  bool explain = false;
};

void writeTextReport(const v1::AnalysisResult &result,
                     const TextReportOptions &options, std::ostream &out);

} // namespace gpurace::analyzer

#endif
