#include "runtime/cli/RuntimeCommands.h"

namespace gpurace {

std::vector<Subcommand> runtimeSubcommands() {
  return {
      unavailableSubcommand(
          "instrument",
          "Rewrite the planned access and sync sites of a CUDA file",
          "the source instrumenter (runtime/instrument) is not built yet"),
      unavailableSubcommand(
          "run", "Run a program under the CUPTI race-detection agent",
          "the runtime agent (runtime/agent) is not built yet"),
  };
}

} // namespace gpurace
