#include "server/cli/AnalysisUpload.h"

#include "common/Subcommand.h"
#include "proto/JsonCodec.h"
#include "server/cli/Commands.h"
#include "storage/TokenHash.h"

#include <iostream>

namespace gpurace {

namespace {

// The same result uploaded for the same project, commit and branch is the
// same upload: a retried CI step stores nothing twice.
std::string defaultUploadId(const v1::RunMetadata &m, const std::string &identity) {
  return "sha256:" + sha256Hex(m.project() + '\0' + m.commit() + '\0' +
                               m.branch() + '\0' + identity);
}

void printSummary(const v1::UploadAnalysisResponse &r) {
  std::cout << "gpurace upload: " << r.run_id()
            << (r.duplicate() ? " (already stored)" : "") << ": "
            << r.races_new() << " new, " << r.races_reopened()
            << " reopened, " << r.races_resolved() << " resolved, "
            << r.races_unresolved() << " unresolved\n";
}

} // namespace

void addRunMetadataFlags(CLI::App &app, v1::RunMetadata &m, bool project_required) {
  auto *project = app.add_option_function<std::string>(
      "--project", [&m](const std::string &v) { m.set_project(v); },
      "project the result belongs to");
  if (project_required)
    project->required();
  app.add_option_function<std::string>(
      "--commit", [&m](const std::string &v) { m.set_commit(v); },
      "commit that was analyzed");
  app.add_option_function<std::string>(
      "--branch", [&m](const std::string &v) { m.set_branch(v); },
      "branch that was analyzed");
  app.add_option_function<std::string>(
      "--ci-url", [&m](const std::string &v) { m.set_ci_job_url(v); },
      "link to the CI job");
}

int uploadAnalysis(const v1::AnalysisResult &result, const std::string &identity,
                   UploadTarget &target) {
  v1::UploadAnalysisRequest request;
  *request.mutable_result() = result;
  *request.mutable_metadata() = target.metadata;
  request.set_full_analysis(!target.partial);
  request.set_upload_id(target.upload_id.empty()
                            ? defaultUploadId(target.metadata, identity)
                            : target.upload_id);
  applyClientEnvironment(target.client);
  RaceClient client(target.client);
  auto response = client.uploadAnalysis(request);
  if (!response.ok())
    return reportError("upload", response.status());
  if (target.format == "json")
    std::cout << toJson(response.value()) << "\n";
  else
    printSummary(response.value());
  bool findings = response->races_new() + response->races_reopened() > 0;
  return findings ? kExitFindings : kExitOk;
}

} // namespace gpurace
