//===- AgentLog.h - the agent's messages on stderr --------------*- C++ -*-===//
//
// The agent shares stderr with the program it watches: every line it prints
// starts with "gpurace: " so that a user can tell the two apart.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_AGENT_AGENTLOG_H
#define GPURACE_RUNTIME_AGENT_AGENTLOG_H

#include <cstdio>
#include <string>

namespace gpurace::rt {

inline void agentMessage(const std::string &text) noexcept {
  try {
    // One write per line, so that lines of concurrent threads do not mix.
    std::string line = "gpurace: " + text + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
  } catch (...) {
    // Out of memory: the message is lost, the program goes on.
  }
}

} // namespace gpurace::rt

#endif
