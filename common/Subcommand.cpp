#include "common/Subcommand.h"

#include <iostream>

namespace gpurace {

Subcommand unavailableSubcommand(std::string name, std::string summary,
                                 std::string missing) {
  Subcommand command;
  command.name = name;
  command.summary = summary + " [not available yet]";
  command.setup = [name, missing](CLI::App &app, const CommandContext &) {
    app.footer("Not available yet: " + missing);
    app.allow_extras();
    return [name, missing]() {
      std::cerr << "gpurace " << name << ": not available yet: " << missing
                << "\n";
      return static_cast<int>(kExitToolError);
    };
  };
  return command;
}

} // namespace gpurace
