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

// Reads the file at `path` and decodes it (decodeAnalysisResult).
Status readAnalysisResult(const std::string &path, v1::AnalysisResult &result,
                          std::string &contents);

// Decodes `contents` of the file `path` as SARIF when the name ends in
// ".sarif" or ".sarif.json", else as AnalysisResult JSON. Errors name the
// file and the field.
Status decodeAnalysisResult(const std::string &contents,
                            const std::string &path,
                            v1::AnalysisResult &result);

Status analysisFromSarif(const std::string &text, const std::string &path,
                         v1::AnalysisResult &result);

} // namespace gpurace

#endif
