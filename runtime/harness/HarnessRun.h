//===- HarnessRun.h - a whole CUDA program on the CPU harness ---*- C++ -*-===//
//
// The dynamic half of gpurace without a GPU: `gpurace instrument
// --cpu-harness` rewrites the program's planned sites and its host code,
// the host C++ compiler builds it against the harness headers, the program
// runs with a trace directory, and every launch's trace goes through the
// happens-before detector into a RuntimeReport.
//
// A program the harness cannot run faithfully (an unsupported API, a
// launch over the thread limits, a run past the deadline) is skipped with
// the reason, never run differently.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_HARNESS_HARNESSRUN_H
#define GPURACE_RUNTIME_HARNESS_HARNESSRUN_H

#include "gpurace/v1/runtime.pb.h"

#include <string>
#include <vector>

namespace gpurace::rt {

struct HarnessJob {
  // The gpurace program and the host C++ compiler (absolute paths).
  std::string gpurace;
  std::string compiler;
  // The repository root, for the harness headers.
  std::string source_dir;
  // An AnalysisResult (or bare plan) JSON file from `gpurace analyze`.
  std::string plan;
  std::string file;
  // A private scratch directory; it keeps the instrumented source, the
  // program, its output and the traces.
  std::string work_dir;
  // Extra environment of the program: harness limits (CpuLaunch.h).
  std::vector<std::string> env;
  unsigned timeout_s = 120;
};

struct HarnessOutcome {
  enum Status { Ran, Skipped, Failed } status = Failed;
  // Why it was skipped or failed; for a run, what is worth knowing (a
  // non-zero exit status of the program).
  std::string reason;
  // One report per launch, in launch order.
  std::vector<v1::RuntimeReport> reports;
};

HarnessOutcome runOnHarness(const HarnessJob &job);

} // namespace gpurace::rt

#endif
