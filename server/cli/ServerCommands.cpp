#include "server/cli/ServerCommands.h"

namespace gpurace {

std::vector<Subcommand> serverSubcommands() {
  const std::string missing = "the race server (server/, storage/) is not built yet";
  return {
      unavailableSubcommand("serve", "Serve the race database over gRPC and HTTP",
                            missing),
      unavailableSubcommand("upload", "Upload an analysis result to a server",
                            missing),
      unavailableSubcommand("races", "List and triage the races a server holds",
                            missing),
      unavailableSubcommand("token", "Create, list and revoke API tokens",
                            missing),
      unavailableSubcommand("db", "Maintain the race database (migrate, prune)",
                            missing),
  };
}

} // namespace gpurace
