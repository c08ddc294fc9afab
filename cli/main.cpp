//===- main.cpp - the gpurace command-line program ------------------------===//
//
// Collects the subcommands of every component and dispatches to one. Usage
// errors print one line and exit 1; `--help` anywhere prints the help of the
// command it follows.
//
//===----------------------------------------------------------------------===//
#include "analyzer/cli/AnalyzerCommands.h"
#include "common/Subcommand.h"
#include "common/Version.h"
#include "runtime/cli/RuntimeCommands.h"
#include "server/cli/ServerCommands.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>

namespace {

std::vector<gpurace::Subcommand> allSubcommands() {
  std::vector<gpurace::Subcommand> all;
  for (auto *group : {&gpurace::analyzerSubcommands,
                      &gpurace::runtimeSubcommands,
                      &gpurace::serverSubcommands})
    for (auto &command : (*group)())
      all.push_back(std::move(command));
  return all;
}

// Splits argv at the first bare "--": what follows belongs to the
// subcommand (compiler flags, a program to run), not to the parser.
std::vector<std::string> splitPassthrough(std::vector<std::string> &args) {
  auto dashes = std::find(args.begin(), args.end(), "--");
  if (dashes == args.end())
    return {};
  std::vector<std::string> rest(dashes + 1, args.end());
  args.erase(dashes, args.end());
  return rest;
}

// CLI11 reports a missing subcommand before an unknown flag or name; a
// user is better served by hearing about the word they mistyped.
std::string checkTopLevel(const std::vector<std::string> &args,
                          const std::vector<gpurace::Subcommand> &commands) {
  for (const std::string &arg : args) {
    if (arg == "-h" || arg == "--help" || arg == "--version")
      continue;
    if (!arg.empty() && arg[0] == '-')
      return "unknown option '" + arg + "'";
    bool known = std::any_of(commands.begin(), commands.end(),
                             [&](const auto &c) { return c.name == arg; });
    return known ? std::string() : "unknown command '" + arg + "'";
  }
  return {};
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  gpurace::CommandContext context;
  context.passthrough = splitPassthrough(args);

  CLI::App app("gpurace: static and dynamic data race detection for CUDA programs.",
               "gpurace");
  app.set_version_flag("--version", std::string("gpurace ") + gpurace::kVersion);
  app.require_subcommand(1, 1);
  app.footer("Run 'gpurace <command> --help' for the flags of one command.\n"
             "Exit codes: 0 success (no finding), 1 error, 2 findings.");

  std::function<int()> action;
  std::vector<gpurace::Subcommand> commands = allSubcommands();
  for (auto &command : commands) {
    CLI::App *sub = app.add_subcommand(command.name, command.summary);
    auto run = command.setup(*sub, context);
    bool passthrough_ok = command.accepts_passthrough;
    std::string name = command.name;
    sub->final_callback([&action, run, passthrough_ok, name, &context]() {
      if (!passthrough_ok && !context.passthrough.empty())
        throw CLI::ValidationError("--", "'gpurace " + name +
                               "' takes no arguments after '--'");
      action = run;
    });
  }

  if (std::string problem = checkTopLevel(args, commands); !problem.empty()) {
    std::cerr << "gpurace: error: " << problem << " (see 'gpurace --help')\n";
    return gpurace::kExitToolError;
  }
  std::reverse(args.begin(), args.end());
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp &) {
    // The help flag belongs to the subcommand it follows, if any.
    const CLI::App *target = &app;
    // Commands with actions (`token create --help`) go one level deeper.
    while (!target->get_subcommands().empty())
      target = target->get_subcommands().front();
    std::cout << target->help() << std::flush;
    return 0;
  } catch (const CLI::CallForAllHelp &) {
    std::cout << app.help("", CLI::AppFormatMode::All) << std::flush;
    return 0;
  } catch (const CLI::CallForVersion &) {
    std::cout << "gpurace " << gpurace::kVersion << "\n";
    return 0;
  } catch (const CLI::ParseError &error) {
    std::cerr << "gpurace: error: " << error.what()
              << " (see 'gpurace --help')\n";
    return gpurace::kExitToolError;
  }
  if (!action)
    return gpurace::kExitToolError;
  return action();
}
