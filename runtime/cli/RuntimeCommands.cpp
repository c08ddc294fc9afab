#include "runtime/cli/RuntimeCommands.h"

namespace gpurace {

std::vector<Subcommand> runtimeSubcommands() {
  return {
      instrumentSubcommand(),
      unavailableSubcommand(
          "run", "Run a program under the CUPTI race-detection agent",
          "the runtime agent (runtime/agent) is not built yet"),
  };
}

} // namespace gpurace
