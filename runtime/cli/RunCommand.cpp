// `gpurace run`: run a program under the CUPTI agent. The agent's options
// are environment variables (runtime/agent/AgentOptions.h); the flags here
// set them, and the program inherits them with CUDA_INJECTION64_PATH.
#include "runtime/cli/RuntimeCommands.h"

#include "common/ProjectPaths.h"
#include "runtime/agent/AgentOptions.h"
#include "runtime/agent/AgentSummary.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

namespace gpurace {

namespace {

namespace fs = std::filesystem;

constexpr int kExitCannotRun = 127;

struct RunFlags {
  // Values of the agent options given as flags, by variable.
  std::map<std::string, std::string> options;
  std::string agent;
  bool fail_on_race = false;
};

int fail(const std::string &message) {
  std::cerr << "gpurace run: error: " << message << "\n";
  return kExitToolError;
}

// --agent, $GPURACE_AGENT_LIBRARY, or lib/libgpurace_agent.so beside the
// bin/ folder of this program (the build tree and an install alike).
std::string agentLibrary(const RunFlags &flags) {
  if (!flags.agent.empty())
    return flags.agent;
  if (const char *env = std::getenv("GPURACE_AGENT_LIBRARY"); env && *env)
    return env;
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return (self.parent_path().parent_path() / "lib" / "libgpurace_agent.so").string();
}

std::string makeSummaryFile() {
  const char *tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/gpurace-run-XXXXXX";
  int fd = mkstemp(pattern.data());
  if (fd < 0)
    return "";
  close(fd);
  return pattern;
}

// Runs `argv` and returns its exit status as a shell reports it.
int runProgram(const std::vector<std::string> &argv) {
  pid_t pid = fork();
  if (pid < 0)
    return fail(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    std::vector<char *> args;
    for (const std::string &a : argv)
      args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::cerr << "gpurace run: error: cannot run " << argv[0] << ": "
              << std::strerror(errno) << "\n";
    _exit(kExitCannotRun);
  }
  // Like system(): a Ctrl-C is the program's to handle.
  struct sigaction ignore = {}, old_int, old_quit;
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGQUIT, &ignore, &old_quit);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Sets the agent's environment from the flags and checks it the way the
// agent will read it; returns the problem, or "".
std::string prepareEnvironment(const RunFlags &flags, const std::string &agent,
                               const std::string &summary) {
  for (const auto &[variable, value] : flags.options)
    setenv(variable.c_str(), value.c_str(), 1);
  // The project root, canonical, for the agent: --root (or an inherited
  // GPURACE_SOURCE_ROOT), else the git work tree around us.
  const char *given = std::getenv("GPURACE_SOURCE_ROOT");
  std::string root_error;
  std::string root =
      findProjectRoot(given ? given : "", ".", root_error);
  if (!root_error.empty())
    return root_error;
  setenv("GPURACE_SOURCE_ROOT", root.c_str(), 1);
  setenv("GPURACE_SUMMARY_FILE", summary.c_str(), 1);
  setenv("CUDA_INJECTION64_PATH", agent.c_str(), 1);
  rt::AgentOptions options;
  std::string error;
  if (!rt::parseAgentOptions(std::getenv, options, error))
    return error;
  // A fresh report file per run: an empty file says no launch was checked.
  if (!options.report_file.empty() && !std::ofstream(options.report_file, std::ios::trunc))
    return options.report_file + ": cannot write the report file";
  if (options.plan.empty())
    std::cerr << "gpurace run: warning: no --plan (GPURACE_PLAN): races are "
                 "reported by site number, without source locations\n";
  return "";
}

void printOutcome(const std::optional<rt::AgentSummary> &summary) {
  if (!summary) {
    std::cerr << "gpurace run: no launch checked: the program never "
                 "initialized CUDA, so the agent was not loaded\n";
    return;
  }
  if (!summary->startup_error.empty())
    std::cerr << "gpurace run: the agent could not start: " << summary->startup_error << "\n";
  else
    std::cerr << "gpurace run: " << rt::describe(*summary) << "\n";
}

int run(const RunFlags &flags, const CommandContext &context) {
  if (context.passthrough.empty())
    return fail("give the program to run after --: gpurace run [FLAGS] -- PROGRAM ARGS");
  if (!GPURACE_AGENT_BUILT && flags.agent.empty() && !std::getenv("GPURACE_AGENT_LIBRARY"))
    return fail("the CUDA agent (libgpurace_agent.so) is not built: CUDA with "
                "CUPTI was not found when gpurace was configured");
  std::string agent = agentLibrary(flags);
  if (!fs::exists(agent))
    return fail(agent + ": the agent library does not exist (--agent or "
                        "GPURACE_AGENT_LIBRARY name another)");
  std::string summary = makeSummaryFile();
  if (summary.empty())
    return fail(std::string("cannot create a temporary file: ") + std::strerror(errno));
  if (std::string problem = prepareEnvironment(flags, agent, summary); !problem.empty()) {
    std::remove(summary.c_str());
    return fail(problem);
  }
  int status = runProgram(context.passthrough);
  std::optional<rt::AgentSummary> outcome = rt::readAgentSummary(summary);
  std::remove(summary.c_str());
  printOutcome(outcome);
  if (flags.fail_on_race && status == 0 && outcome && outcome->races > 0)
    return kExitFindings;
  return status;
}

std::string footer() {
  std::string text =
      "gpurace run [OPTIONS] -- PROGRAM [ARGS...]\n"
      "Runs PROGRAM with the race-detection agent (libgpurace_agent.so) loaded "
      "by the CUDA driver through CUDA_INJECTION64_PATH. Each launch of an "
      "instrumented kernel (gpurace instrument) is checked: one RuntimeReport "
      "per launch goes to --report FILE (one JSON per line; the file is "
      "emptied first, so an empty file means no launch was checked) and/or to "
      "--server in batches; reports the server cannot take are spooled for "
      "gpurace upload --spool. Confirmed races are also printed on stderr.\n"
      "Exit codes: PROGRAM's own (128+N when signal N ended it); 2 with "
      "--fail-on-race when PROGRAM exited 0 and a race was confirmed; 127 "
      "PROGRAM cannot be run; 1 gpurace error (bad option, agent missing).\n";
  if (!GPURACE_AGENT_BUILT)
    text += "Not available in this build: the CUDA agent is not built (CUDA "
            "with CUPTI was not found when gpurace was configured).\n";
  return text + "\n" + rt::agentOptionsHelp();
}

} // namespace

Subcommand runSubcommand() {
  Subcommand command;
  command.name = "run";
  command.summary = "Run a program under the CUPTI race-detection agent";
  command.accepts_passthrough = true;
  command.setup = [](CLI::App &app, const CommandContext &context) {
    auto flags = std::make_shared<RunFlags>();
    for (const rt::AgentOption &option : rt::agentOptionTable())
      if (option.run_flag)
        app.add_option(option.run_flag, flags->options[option.variable],
                       std::string("sets ") + option.variable);
    app.add_option("--agent", flags->agent,
                   "the agent library (default: $GPURACE_AGENT_LIBRARY, else "
                   "lib/libgpurace_agent.so beside gpurace's bin/)");
    app.add_flag("--fail-on-race", flags->fail_on_race,
                 "exit 2 when a race was confirmed and PROGRAM exited 0");
    app.footer(footer());
    return [flags, &context]() {
      // Flags not given leave the inherited environment alone.
      RunFlags given = *flags;
      for (auto it = given.options.begin(); it != given.options.end();)
        it = it->second.empty() ? given.options.erase(it) : std::next(it);
      return run(given, context);
    };
  };
  return command;
}

} // namespace gpurace
