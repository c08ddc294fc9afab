#include "runtime/cli/RuntimeCommands.h"

namespace gpurace {

std::vector<Subcommand> runtimeSubcommands() {
  return {instrumentSubcommand(), runSubcommand()};
}

} // namespace gpurace
