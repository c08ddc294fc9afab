#ifndef GPURACE_SERVER_CLI_SERVERCOMMANDS_H
#define GPURACE_SERVER_CLI_SERVERCOMMANDS_H

#include "common/Subcommand.h"

namespace gpurace {
// `serve`, `upload`, `races`, `token` and `db`.
std::vector<Subcommand> serverSubcommands();
} // namespace gpurace

#endif
