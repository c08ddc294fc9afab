//===- TraceFormat.h - the trace file one harness launch writes -*- C++ -*-===//
//
// The CPU harness writes one file per kernel launch: this header, then the
// launch's records, each as its 24-byte WarpRecord head followed by the
// address and value of every active lane only. A harness thread is a warp
// of one, so a record takes 40 bytes on disk instead of 536 in the buffer.
// The writer rewrites the header when the launch ends, with the totals.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_HARNESS_TRACEFORMAT_H
#define GPURACE_RUNTIME_HARNESS_TRACEFORMAT_H

#include "runtime/device/RecordLayout.h"

#include <stddef.h>
#include <stdint.h>

namespace gpurace {
namespace rt {

constexpr uint64_t kTraceMagic = 0x3165636172747067ull; // "gptrace1"
constexpr size_t kRecordHeadBytes = offsetof(WarpRecord, address);

struct TraceFileHeader {
  uint64_t magic;
  uint64_t launch_id;
  // Records in the file, and records the buffer had no room for.
  uint64_t records;
  uint64_t lost;
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t cooperative;
  uint32_t dynamic_shared_bytes;
  char kernel[128];
};

static_assert(sizeof(TraceFileHeader) == 32 + 24 + 8 + 128,
              "TraceFileHeader has no padding");

} // namespace rt
} // namespace gpurace

#endif
