//===- TraceReader.h - a harness trace file to a RuntimeReport --*- C++ -*-===//
//
// Reads the trace file of one launch on the CPU harness (TraceFormat.h),
// feeds its records to the happens-before detector in file order and
// returns what the detector found as a RuntimeReport.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_HARNESS_TRACEREADER_H
#define GPURACE_RUNTIME_HARNESS_TRACEREADER_H

#include "runtime/report/RaceReport.h"

#include <optional>
#include <string>

namespace gpurace::rt {

struct TraceSummary {
  v1::RuntimeReport report;
  uint64_t records = 0;
};

// On failure returns nullopt and sets `error` to "PATH: problem".
std::optional<TraceSummary> readTrace(const std::string &path, const SitePlan &plan,
                                      const std::string &program, std::string &error);

} // namespace gpurace::rt

#endif
