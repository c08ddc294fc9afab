#ifndef GPURACE_RUNTIME_CLI_RUNTIMECOMMANDS_H
#define GPURACE_RUNTIME_CLI_RUNTIMECOMMANDS_H

#include "common/Subcommand.h"

namespace gpurace {
// `instrument` and `run`.
std::vector<Subcommand> runtimeSubcommands();

Subcommand instrumentSubcommand();
Subcommand runSubcommand();
} // namespace gpurace

#endif
