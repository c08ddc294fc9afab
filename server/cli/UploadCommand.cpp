// `gpurace upload`: send an analysis result to the server; exit 2 when it
// brought new or reopened races, so that CI can gate on it. With --spool,
// send the runtime reports an agent spooled while the server was away.
#include "server/cli/AnalysisUpload.h"
#include "server/cli/Commands.h"
#include "server/cli/ResultFile.h"
#include "server/cli/SpoolUpload.h"

#include <memory>

namespace gpurace {

namespace {

struct UploadFlags {
  std::string file;
  std::string spool;
  UploadTarget target;
};

int upload(UploadFlags &flags) {
  if (!flags.spool.empty())
    return uploadSpool(flags.spool, flags.target.client);
  if (flags.file.empty())
    return reportError("upload", Status::invalid("give RESULT.json or --spool DIR"));
  if (flags.target.metadata.project().empty())
    return reportError("upload", Status::invalid("--project is required to upload RESULT"));
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
  command.summary = "Upload an analysis result, or spooled runtime reports, to a server";
  command.setup = [](CLI::App &app, const CommandContext &) {
    auto flags = std::make_shared<UploadFlags>();
    auto *result = app.add_option("RESULT", flags->file,
                                  "RESULT.json (gpurace analyze --format=json) or "
                                  "RESULT.sarif");
    app.add_option("--spool", flags->spool,
                   "instead of RESULT: send the runtime reports `gpurace run` "
                   "spooled in DIR (GPURACE_SPOOL_DIR) while the server was "
                   "unreachable; each file is removed once the server "
                   "acknowledged it")
        ->excludes(result);
    addClientFlags(app, flags->target.client);
    addRunMetadataFlags(app, flags->target.metadata, false);
    app.add_option("--upload-id", flags->target.upload_id,
                   "idempotency key (default: a hash of the file and the "
                   "project, commit and branch)");
    app.add_flag("--partial", flags->target.partial,
                 "the result covers only part of the code: resolve no race");
    app.add_option("--format", flags->target.format, "text or json")
        ->check(CLI::IsMember({"text", "json"}));
    app.footer("--project is required with RESULT; spooled reports carry their "
               "own project.\n"
               "Exit codes: 0 stored, no new race; 2 stored, new or reopened "
               "races (with --spool: races newly confirmed); 1 error (with "
               "--spool: some reports are left in DIR).");
    return [flags]() { return upload(*flags); };
  };
  return command;
}

} // namespace gpurace
