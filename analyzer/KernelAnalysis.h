//===- KernelAnalysis.h - check one kernel in all its contexts --*- C++ -*-===//
//
// Builds the model of one kernel from its device-side parse and checks it
// in every context: each launch the program's host code makes of it (from
// whichever host parse the launch is in), or the command line's dims when
// it has no visible launch (or host facts are off).
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_KERNELANALYSIS_H
#define GPURACE_ANALYZER_KERNELANALYSIS_H

#include "analyzer/AnalyzeOptions.h"
#include "analyzer/FileAnalysis.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace gpurace::analyzer {

class DeviceUnit;
class FactSetVerdicts;

struct Launch;

// A launch together with the host parse it belongs to.
struct HostLaunch {
  const Launch *launch = nullptr;
  clang::ASTContext *host_ast = nullptr;
};

// One kernel's analysis, in two steps. Preparing reads the parse: it
// builds the model and a launch context per launch. Checking uses only the
// solver, on the kernel's own Z3 context, so the kernels of one file are
// prepared in turn and checked side by side.
class KernelAnalysis {
public:
  // Throws on an internal failure (an unsupported construct, a solver
  // exception); the caller turns it into an error entry naming the kernel.
  // `clock_stops` counts the queries the wall-clock cap stopped, shared
  // with the other instances of the same kernel template
  // (CheckOptions::clock_stops). `fact_verdicts` is the unit's, used only
  // while constructing (RelatedFacts.h).
  KernelAnalysis(const clang::FunctionDecl &kernel, DeviceUnit &unit,
                 const std::vector<HostLaunch> &launches, const AnalyzeOptions &options,
                 std::shared_ptr<std::atomic<unsigned>> clock_stops,
                 FactSetVerdicts &fact_verdicts);
  ~KernelAnalysis();
  KernelAnalysis(const KernelAnalysis &) = delete;
  KernelAnalysis &operator=(const KernelAnalysis &) = delete;

  // Checks the kernel in every context; safe on any thread. A failure is
  // kept, not thrown.
  void check();
  // Why check() failed, if it did.
  const std::string &failure() const;
  // Adds the kernel's candidates, proofs and sync sites to `out` (nothing
  // when check() failed).
  void addTo(FileAnalysis &out) const;

private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace gpurace::analyzer

#endif
