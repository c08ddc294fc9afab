//===- ChildProcess.h - run a program with a deadline -----------*- C++ -*-===//
#ifndef GPURACE_RUNTIME_HARNESS_CHILDPROCESS_H
#define GPURACE_RUNTIME_HARNESS_CHILDPROCESS_H

#include <string>
#include <vector>

namespace gpurace::rt {

struct ChildResult {
  // The exit status, or -1 when the program was killed by a signal.
  int exit_code = -1;
  int signal = 0;
  bool timed_out = false;
  std::string err;
};

// Runs `argv` (no shell) with `env` ("NAME=value") added to the
// environment, stdout to `out_path` and stderr captured. A program still
// running after `timeout_s` seconds is killed with its process group. Only
// async-signal-safe calls happen between fork and exec, so several threads
// may run children at once.
ChildResult runChild(const std::vector<std::string> &argv,
                     const std::vector<std::string> &env,
                     const std::string &out_path, unsigned timeout_s);

} // namespace gpurace::rt

#endif
