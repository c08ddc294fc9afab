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

#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace gpurace::analyzer {

struct Launch;

// A launch together with the host parse it belongs to.
struct HostLaunch {
  const Launch *launch = nullptr;
  clang::ASTContext *host_ast = nullptr;
};

// Adds the kernel's candidates, proofs and sync sites to `out`. Throws on an
// internal failure (an unsupported construct, a solver exception); the
// caller turns it into an error entry naming the kernel.
void analyzeKernel(const clang::FunctionDecl &kernel, clang::ASTContext &device_ast,
                   const std::vector<HostLaunch> &launches, const AnalyzeOptions &options,
                   FileAnalysis &out);

} // namespace gpurace::analyzer

#endif
