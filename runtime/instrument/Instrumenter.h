//===- Instrumenter.h - `gpurace instrument`, file and launcher modes -*- C++ -*-===//
#ifndef GPURACE_RUNTIME_INSTRUMENT_INSTRUMENTER_H
#define GPURACE_RUNTIME_INSTRUMENT_INSTRUMENTER_H

#include "runtime/instrument/SourceRewriter.h"
#include "runtime/report/SitePlan.h"

#include <string>
#include <vector>

namespace gpurace::rt {

// The plan's sites that lie in `file`, numbered as records will name them.
std::vector<PlannedSite> sitesInFile(const SitePlan &plan,
                                     const std::string &file);

struct InstrumentOutcome {
  bool ok = false;
  std::string error;
  std::vector<std::string> unmatched;
  size_t sites = 0;
};

// Rewrites `input` into `output`. `flags` are the user's compiler flags;
// `cpu_harness` also rewrites the host code for the CPU harness.
InstrumentOutcome instrumentFile(const SitePlan &plan, const std::string &input,
                                 const std::string &output,
                                 const std::vector<std::string> &flags,
                                 const std::string &runtime_header,
                                 bool cpu_harness = false);

// Compiler-launcher mode: instruments the .cu sources among `command`'s
// arguments into a scratch directory, runs the command on the copies and
// returns its exit status (1 when instrumenting fails).
int runAsLauncher(const SitePlan &plan, std::vector<std::string> command,
                  const std::string &runtime_header);

// The compiler flags of `command` that matter to parsing: -I, -isystem, -D,
// -U, -std, -include.
std::vector<std::string> parseFlagsOf(const std::vector<std::string> &command);

} // namespace gpurace::rt

#endif
