//===- AnalysisUpload.h - send one AnalysisResult to a server ---*- C++ -*-===//
//
// What `gpurace upload` and `gpurace analyze --upload` share: the run's
// metadata, the idempotency key, and the exit code CI gates on.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_SERVER_CLI_ANALYSISUPLOAD_H
#define GPURACE_SERVER_CLI_ANALYSISUPLOAD_H

#include "gpurace/v1/analysis.pb.h"
#include "gpurace/v1/runtime.pb.h"
#include "server/RaceClient.h"

#include <CLI/CLI.hpp>

#include <string>

namespace gpurace {

struct UploadTarget {
  ClientOptions client;
  v1::RunMetadata metadata;
  std::string upload_id;
  bool partial = false;
  std::string format = "text";
};

// --project (required when `project_required`), --commit, --branch and
// --ci-url.
void addRunMetadataFlags(CLI::App &app, v1::RunMetadata &metadata,
                         bool project_required);

// Uploads `result`; `identity` (the file's bytes) keys a retried upload
// when no --upload-id was given. Prints a summary and returns 0 when no
// race is new, 2 when some are new or reopened, 1 on error.
int uploadAnalysis(const v1::AnalysisResult &result, const std::string &identity,
                   UploadTarget &target);

} // namespace gpurace

#endif
