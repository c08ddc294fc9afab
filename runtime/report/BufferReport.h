//===- BufferReport.h - one launch's record buffer to its report -*- C++ -*-===//
//
// The one path from the bytes of a record buffer (as the agent copies it
// back from the GPU, or as the CPU harness writes it) to a RuntimeReport:
// check the header, run the detector over the records in buffer order, and
// build the report with the buffer's coverage counts.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_REPORT_BUFFERREPORT_H
#define GPURACE_RUNTIME_REPORT_BUFFERREPORT_H

#include "runtime/report/RaceReport.h"

#include <cstddef>
#include <string>

namespace gpurace::rt {

// How many records a buffer with this header holds: what was written, up to
// its capacity.
uint64_t recordsHeld(const RecordBufferHeader &header);

// Checks that `header` is a buffer of at most `capacity` records (0: any);
// returns the problem, or an empty string.
std::string checkBufferHeader(const RecordBufferHeader &header,
                              uint64_t capacity = 0);

// `bytes` is a buffer header followed by its records. Fills `report` and
// returns true; on a malformed buffer returns false and sets `error`.
bool reportFromBuffer(const void *bytes, size_t size,
                      const LaunchLayout &layout, const SitePlan &plan,
                      LaunchFacts facts, v1::RuntimeReport &report,
                      std::string &error);

} // namespace gpurace::rt

#endif
