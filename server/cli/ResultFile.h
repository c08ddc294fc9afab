//===- ResultFile.h - reading what `gpurace analyze` wrote ------*- C++ -*-===//
//
// JSON is the proto3 JSON of AnalysisResult. SARIF 2.1.0 is read back into
// the same message: each result's fingerprint comes from its
// partialFingerprints (a "v1:" value), its two sites from its location and
// first related location, its class from the rule id
// ("gpurace-inter-block").
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_SERVER_CLI_RESULTFILE_H
#define GPURACE_SERVER_CLI_RESULTFILE_H

#include "gpurace/v1/analysis.pb.h"
#include "storage/Status.h"

#include <string>

namespace gpurace {

// Reads `path` as SARIF when it ends in ".sarif" or holds a "runs" array
// with a "$schema"/"version" of SARIF, else as AnalysisResult JSON. Errors
// name the file and the field.
Status readAnalysisResult(const std::string &path, v1::AnalysisResult &result,
                          std::string &contents);

Status analysisFromSarif(const std::string &text, const std::string &path,
                         v1::AnalysisResult &result);

} // namespace gpurace

#endif
