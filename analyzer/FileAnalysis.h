//===- FileAnalysis.h - analyze one translation unit ------------*- C++ -*-===//
//
// Parses one .cu file, builds the model of each kernel, and checks it in
// every context: each launch site, or the command line's dims when the
// kernel has no visible launch (or host facts are off).
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_FILEANALYSIS_H
#define GPURACE_ANALYZER_FILEANALYSIS_H

#include "analyzer/AnalyzeOptions.h"

#include "gpurace/v1/analysis.pb.h"

#include <string>
#include <vector>

namespace gpurace::analyzer {

struct FileAnalysis {
  std::string file;
  std::vector<v1::RaceCandidate> candidates;
  std::vector<v1::RaceFreedomProof> proofs;
  std::vector<v1::SyncSite> sync_sites;
  std::vector<v1::FileError> errors;
  unsigned kernels = 0;
  unsigned queries = 0;
  // Whether a kernel relies on atomic counters handing out distinct values.
  bool counts_tickets = false;
};

FileAnalysis analyzeFile(const std::string &file,
                         const std::vector<std::string> &flags,
                         const AnalyzeOptions &options);

} // namespace gpurace::analyzer

#endif
