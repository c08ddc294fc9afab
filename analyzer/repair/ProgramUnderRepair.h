//===- ProgramUnderRepair.h - what both repair passes start from -*- C++ -*-===//
//
// `gpurace fix` and `--redundant-barriers` read the program's units and
// headers once, analyze it as it is on disk, then parse and re-analyze
// edited texts of its files in memory.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_REPAIR_PROGRAMUNDERREPAIR_H
#define GPURACE_ANALYZER_REPAIR_PROGRAMUNDERREPAIR_H

#include "analyzer/AnalyzeOptions.h"
#include "analyzer/frontend/SourceParser.h"
#include "analyzer/program/ProgramIndex.h"

#include "gpurace/v1/analysis.pb.h"

#include <string>
#include <vector>

namespace gpurace::analyzer {

struct ProgramUnderRepair {
  std::vector<ProgramUnit> units;
  HeaderSetup headers;
  // The analysis of the files as they are on disk.
  v1::AnalysisResult analysis;
};

// Fails only when the program cannot be analyzed at all (no input, an
// unreadable compilation database, a --cuda-path that is no toolkit).
bool loadProgram(const AnalyzeOptions &options, ProgramUnderRepair &program,
                 std::string &error);

// A file's whole text; false when it cannot be read.
bool readSourceText(const std::string &path, std::string &text);

// `unit`'s device side parsed from `text` instead of the file's.
ParsedSource parseDeviceSide(const ProgramUnit &unit, const HeaderSetup &headers,
                             const std::string &text);

} // namespace gpurace::analyzer

#endif
