// `gpurace upload`: send an analysis result to the server; exit 2 when it
// brought new or reopened races, so that CI can gate on it.
#include "proto/JsonCodec.h"
#include "server/cli/Commands.h"
#include "server/cli/ResultFile.h"
#include "storage/TokenHash.h"

#include <iostream>
#include <memory>

namespace gpurace {

namespace {

struct UploadFlags {
  std::string file;
  ClientOptions client;
  v1::RunMetadata metadata;
  std::string upload_id;
  bool partial = false;
  std::string format = "text";
};

// The same file uploaded for the same project, commit and branch is the
// same upload: a retried CI step stores nothing twice.
std::string defaultUploadId(const UploadFlags &flags,
                            const std::string &contents) {
  const v1::RunMetadata &m = flags.metadata;
  return "sha256:" + sha256Hex(m.project() + '\0' + m.commit() + '\0' +
                               m.branch() + '\0' + contents);
}

void printSummary(const v1::UploadAnalysisResponse &r) {
  std::cout << "gpurace upload: " << r.run_id()
            << (r.duplicate() ? " (already stored)" : "") << ": "
            << r.races_new() << " new, " << r.races_reopened()
            << " reopened, " << r.races_resolved() << " resolved, "
            << r.races_unresolved() << " unresolved\n";
}

int upload(UploadFlags &flags) {
  v1::UploadAnalysisRequest request;
  std::string contents;
  if (Status s = readAnalysisResult(flags.file, *request.mutable_result(),
                                    contents);
      !s.ok())
    return reportError("upload", s);
  *request.mutable_metadata() = flags.metadata;
  request.set_full_analysis(!flags.partial);
  request.set_upload_id(flags.upload_id.empty()
                            ? defaultUploadId(flags, contents)
                            : flags.upload_id);
  applyClientEnvironment(flags.client);
  RaceClient client(flags.client);
  auto response = client.uploadAnalysis(request);
  if (!response.ok())
    return reportError("upload", response.status());
  if (flags.format == "json")
    std::cout << toJson(response.value()) << "\n";
  else
    printSummary(response.value());
  bool findings = response->races_new() + response->races_reopened() > 0;
  return findings ? kExitFindings : kExitOk;
}

} // namespace

Subcommand uploadCommand() {
  Subcommand command;
  command.name = "upload";
  command.summary = "Upload an analysis result to a server";
  command.setup = [](CLI::App &app, const CommandContext &) {
    auto flags = std::make_shared<UploadFlags>();
    app.add_option("RESULT", flags->file,
                   "RESULT.json (gpurace analyze --format=json) or "
                   "RESULT.sarif")
        ->required();
    addClientFlags(app, flags->client);
    v1::RunMetadata &m = flags->metadata;
    app.add_option_function<std::string>(
           "--project", [&m](const std::string &v) { m.set_project(v); },
           "project the result belongs to")
        ->required();
    app.add_option_function<std::string>(
        "--commit", [&m](const std::string &v) { m.set_commit(v); },
        "commit that was analyzed");
    app.add_option_function<std::string>(
        "--branch", [&m](const std::string &v) { m.set_branch(v); },
        "branch that was analyzed");
    app.add_option_function<std::string>(
        "--ci-url", [&m](const std::string &v) { m.set_ci_job_url(v); },
        "link to the CI job");
    app.add_option("--upload-id", flags->upload_id,
                   "idempotency key (default: a hash of the file and the "
                   "project, commit and branch)");
    app.add_flag("--partial", flags->partial,
                 "the result covers only part of the code: resolve no race");
    app.add_option("--format", flags->format, "text or json")
        ->check(CLI::IsMember({"text", "json"}));
    app.footer("Exit codes: 0 stored, no new race; 2 stored, new or reopened "
               "races; 1 error.");
    return [flags]() { return upload(*flags); };
  };
  return command;
}

} // namespace gpurace
