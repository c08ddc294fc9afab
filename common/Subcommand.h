//===- Subcommand.h - one `gpurace <cmd>` -----------------------*- C++ -*-===//
//
// The gpurace program is a set of subcommands, each implemented by the
// component it belongs to. A component describes its subcommand with this
// struct; cli/ only collects them.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_COMMON_SUBCOMMAND_H
#define GPURACE_COMMON_SUBCOMMAND_H

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace gpurace {

// What every subcommand may read besides its own flags.
struct CommandContext {
  // The arguments after a bare "--" (compiler flags for `analyze`, the
  // program for `run`).
  std::vector<std::string> passthrough;
};

// Exit codes shared by every subcommand.
enum ExitCode : int {
  kExitOk = 0,
  kExitToolError = 1,
  kExitFindings = 2,
};

struct Subcommand {
  std::string name;
  std::string summary;
  // Declares the subcommand's flags on `app` and returns the action that
  // runs once parsing has succeeded. The action returns the exit code.
  std::function<std::function<int()>(CLI::App &app,
                                     const CommandContext &context)>
      setup;
  // Whether the subcommand takes arguments after "--".
  bool accepts_passthrough = false;
};

// A subcommand whose component is not built yet: its help says so and it
// exits 1 with a one-line message naming what is missing.
Subcommand unavailableSubcommand(std::string name, std::string summary,
                                 std::string missing);

} // namespace gpurace

#endif
