#ifndef GPURACE_ANALYZER_CLI_ANALYZERCOMMANDS_H
#define GPURACE_ANALYZER_CLI_ANALYZERCOMMANDS_H

#include "common/Subcommand.h"

namespace gpurace {
// `analyze`.
std::vector<Subcommand> analyzerSubcommands();
// `gpurace fix` (FixCommand.cpp).
Subcommand fixSubcommand();
} // namespace gpurace

#endif
