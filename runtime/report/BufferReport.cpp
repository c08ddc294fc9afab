#include "runtime/report/BufferReport.h"

#include <algorithm>
#include <cstring>

namespace gpurace::rt {

uint64_t recordsHeld(const RecordBufferHeader &header) {
  return std::min<uint64_t>(header.next, header.capacity);
}

std::string checkBufferHeader(const RecordBufferHeader &header,
                              uint64_t capacity) {
  if (header.magic != kBufferMagic)
    return "the record buffer's header is overwritten (bad magic number)";
  if (capacity != 0 && header.capacity != capacity)
    return "the record buffer's header is overwritten (capacity " +
           std::to_string(header.capacity) + ", allocated " +
           std::to_string(capacity) + ")";
  return "";
}

bool reportFromBuffer(const void *bytes, size_t size,
                      const LaunchLayout &layout, const SitePlan &plan,
                      LaunchFacts facts, v1::RuntimeReport &report,
                      std::string &error) {
  RecordBufferHeader header;
  if (size < sizeof header) {
    error = "the record buffer is shorter than its header";
    return false;
  }
  std::memcpy(&header, bytes, sizeof header);
  if (error = checkBufferHeader(header); !error.empty())
    return false;
  uint64_t held = recordsHeld(header);
  if ((size - sizeof header) / sizeof(WarpRecord) < held) {
    error = "the record buffer holds fewer records than its header counts (" +
            std::to_string(held) + ")";
    return false;
  }
  Detector detector(layout);
  const unsigned char *at = static_cast<const unsigned char *>(bytes) + sizeof header;
  WarpRecord record;
  for (uint64_t i = 0; i < held; ++i, at += sizeof record) {
    // Copied out: the bytes need not be aligned for a WarpRecord.
    std::memcpy(&record, at, sizeof record);
    detector.process(record);
  }
  facts.records_written = held;
  facts.records_lost = header.lost;
  report = buildReport(detector, plan, facts);
  return true;
}

} // namespace gpurace::rt
