#include "server/cli/ServerCommands.h"

#include "server/cli/Commands.h"

namespace gpurace {

std::vector<Subcommand> serverSubcommands() {
  return {serveCommand(), uploadCommand(), racesCommand(), tokenCommand(),
          dbCommand()};
}

} // namespace gpurace
