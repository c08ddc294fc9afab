//===- AgentSummary.h - what the agent did, for `gpurace run` ---*- C++ -*-===//
//
// The agent writes these counts when the program exits; `gpurace run` reads
// them to print one line and to choose its exit code. A plain "key=value"
// file: it is for one gpurace process to read, not a data-model message.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_AGENT_AGENTSUMMARY_H
#define GPURACE_RUNTIME_AGENT_AGENTSUMMARY_H

#include <cstdint>
#include <optional>
#include <string>

namespace gpurace::rt {

struct AgentSummary {
  // Modules loaded whose code defines the record buffer symbol.
  uint64_t instrumented_modules = 0;
  // Launches of instrumented kernels whose records were checked.
  uint64_t launches_checked = 0;
  // Launches of instrumented kernels that could not be checked (each has a
  // report saying why).
  uint64_t launches_disabled = 0;
  // Races confirmed, summed over the checked launches.
  uint64_t races = 0;
  uint64_t records_lost = 0;
  uint64_t reports_sent = 0;
  uint64_t reports_spooled = 0;
  // Reports neither sent, spooled nor written (each failure was printed).
  uint64_t reports_dropped = 0;
  // Set when the agent could not start; checking was off for the whole run.
  std::string startup_error;
};

bool writeAgentSummary(const std::string &path, const AgentSummary &summary);
// Null when the file is missing or empty: the agent never ran.
std::optional<AgentSummary> readAgentSummary(const std::string &path);

// "3 launches checked, 1 race confirmed, ..." for the user.
std::string describe(const AgentSummary &summary);

} // namespace gpurace::rt

#endif
