//===- RunProcess.h - run a command in tests --------------------*- C++ -*-===//
#ifndef GPURACE_TESTS_SUPPORT_RUNPROCESS_H
#define GPURACE_TESTS_SUPPORT_RUNPROCESS_H

#include <string>
#include <vector>

namespace gpurace::testing {

struct ProcessResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `argv` (no shell) with `input` on stdin and returns its exit code and
// both output streams.
ProcessResult runProcess(const std::vector<std::string> &argv,
                         const std::string &input = "");

// The path of the built gpurace program.
std::string gpuraceBinary();

} // namespace gpurace::testing

#endif
