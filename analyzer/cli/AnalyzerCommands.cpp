#include "analyzer/cli/AnalyzerCommands.h"

namespace gpurace {

std::vector<Subcommand> analyzerSubcommands() {
  return {unavailableSubcommand("analyze",
                                "Find data races in CUDA sources statically",
                                "the static analyzer is not built yet")};
}

} // namespace gpurace
