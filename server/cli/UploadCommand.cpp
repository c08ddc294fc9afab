// `gpurace upload`: send an analysis result to the server; exit 2 when it
// brought new or reopened races, so that CI can gate on it.
#include "server/cli/AnalysisUpload.h"
#include "server/cli/Commands.h"
#include "server/cli/ResultFile.h"

#include <memory>

namespace gpurace {

namespace {

struct UploadFlags {
  std::string file;
  UploadTarget target;
};

int upload(UploadFlags &flags) {
  v1::AnalysisResult result;
  std::string contents;
  if (Status s = readAnalysisResult(flags.file, result, contents); !s.ok())
    return reportError("upload", s);
  return uploadAnalysis(result, contents, flags.target);
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
    addClientFlags(app, flags->target.client);
    addRunMetadataFlags(app, flags->target.metadata, true);
    app.add_option("--upload-id", flags->target.upload_id,
                   "idempotency key (default: a hash of the file and the "
                   "project, commit and branch)");
    app.add_flag("--partial", flags->target.partial,
                 "the result covers only part of the code: resolve no race");
    app.add_option("--format", flags->target.format, "text or json")
        ->check(CLI::IsMember({"text", "json"}));
    app.footer("Exit codes: 0 stored, no new race; 2 stored, new or reopened "
               "races; 1 error.");
    return [flags]() { return upload(*flags); };
  };
  return command;
}

} // namespace gpurace
