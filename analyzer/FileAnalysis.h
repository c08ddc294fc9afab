//===- FileAnalysis.h - analyze one translation unit ------------*- C++ -*-===//
//
// Parses one unit of the program on the device side (kernel bodies, as the
// device compiler sees them) and on the host side (launches), and analyzes
// each kernel the unit owns with the launches of every unit that makes one.
// A Clang error keeps out only the kernels it touches; an internal failure
// in one kernel keeps out only that kernel.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_FILEANALYSIS_H
#define GPURACE_ANALYZER_FILEANALYSIS_H

#include "analyzer/AnalyzeOptions.h"

#include "gpurace/v1/analysis.pb.h"

#include <string>
#include <vector>

namespace gpurace::analyzer {

class JobSlots;
class ProgramIndex;
struct HeaderSetup;
struct ProgramUnit;

struct FileAnalysis {
  std::string file;
  std::vector<v1::RaceCandidate> candidates;
  std::vector<v1::RaceFreedomProof> proofs;
  std::vector<v1::PerfFinding> perf_findings;
  std::vector<v1::SyncSite> sync_sites;
  std::vector<v1::FileError> errors;
  std::vector<v1::FileError> warnings;
  unsigned kernels = 0;
  unsigned queries = 0;
  // Whether a kernel relies on atomic counters handing out distinct values.
  bool counts_tickets = false;
  // Whether a Clang error kept part of the file out of the analysis.
  bool partial = false;
};

// The unit's kernels are checked side by side on the slots `extra_jobs`
// has free, besides the calling thread.
FileAnalysis analyzeUnit(size_t unit, const std::vector<ProgramUnit> &units,
                         const ProgramIndex &index, const HeaderSetup &headers,
                         const AnalyzeOptions &options, JobSlots &extra_jobs);

} // namespace gpurace::analyzer

#endif
