//===- AgentOptions.h - every option of the runtime agent -------*- C++ -*-===//
//
// The agent runs inside the user's program and has no command line: it reads
// environment variables. They are declared once, in the table of
// AgentOptions.cpp, with their default and help; the agent parses them from
// there and `gpurace run --help` prints the same table.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_AGENT_AGENTOPTIONS_H
#define GPURACE_RUNTIME_AGENT_AGENTOPTIONS_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpurace::rt {

struct AgentOptions {
  std::string plan;
  // Reported sites name files relative to it (see common/ProjectPaths.h).
  std::string source_root;
  std::string report_file;
  std::string server;
  std::string token;
  std::string tls_ca;
  std::string project;
  std::string commit;
  std::string branch;
  std::string spool_dir;
  uint32_t batch = 32;
  uint32_t server_timeout_s = 10;
  uint64_t buffer_bytes = 64ull << 20;
  std::vector<std::string> kernels;
  bool quiet = false;
  std::string summary_file;
};

struct AgentOption {
  const char *variable;
  // The `gpurace run` flag that sets it, or null.
  const char *run_flag;
  const char *default_value;
  const char *help;
  // Stores `value` in `options`; returns what is wrong with it, or "".
  std::string (*apply)(const std::string &value, AgentOptions &options);
};

const std::vector<AgentOption> &agentOptionTable();

// The value of an environment variable, or null when it is not set.
using EnvironmentLookup = std::function<const char *(const char *)>;

// Reads every option (its default where the variable is unset or empty).
// On a bad value returns false and sets `error` to
// "VARIABLE=value: what is wrong".
bool parseAgentOptions(const EnvironmentLookup &lookup, AgentOptions &options,
                       std::string &error);

// The table as `gpurace run --help` prints it.
std::string agentOptionsHelp();

} // namespace gpurace::rt

#endif
