#include "runtime/harness/TraceReader.h"

#include "runtime/harness/TraceFormat.h"

#include <cstring>
#include <fstream>

namespace gpurace::rt {

namespace {

// One record as the file stores it: the head, then (address, value) for
// each active lane.
bool readRecord(std::istream &in, WarpRecord &r) {
  std::memset(&r, 0, sizeof r);
  if (!in.read(reinterpret_cast<char *>(&r), kRecordHeadBytes))
    return false;
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    if (r.active_mask & (1u << lane))
      if (!in.read(reinterpret_cast<char *>(&r.address[lane]), 8) ||
          !in.read(reinterpret_cast<char *>(&r.value[lane]), 8))
        return false;
  return true;
}

} // namespace

std::optional<TraceSummary> readTrace(const std::string &path, const SitePlan &plan,
                                      const std::string &program, std::string &error) {
  std::ifstream in(path, std::ios::binary);
  TraceFileHeader header;
  if (!in.read(reinterpret_cast<char *>(&header), sizeof header) ||
      header.magic != kTraceMagic) {
    error = path + ": not a harness trace file";
    return std::nullopt;
  }
  header.kernel[sizeof header.kernel - 1] = '\0';
  Detector detector(LaunchLayout({header.grid[0], header.grid[1], header.grid[2]},
                                 {header.block[0], header.block[1], header.block[2]}));
  WarpRecord record;
  uint64_t read = 0;
  for (; read < header.records && readRecord(in, record); ++read)
    detector.process(record);
  if (read != header.records) {
    error = path + ": " + std::to_string(header.records) + " records announced, " +
            std::to_string(read) + " found";
    return std::nullopt;
  }
  LaunchFacts facts;
  facts.program = program;
  facts.kernel = header.kernel;
  facts.launch_id = header.launch_id;
  facts.cooperative = header.cooperative != 0;
  facts.dynamic_shared_bytes = header.dynamic_shared_bytes;
  facts.device.set_name("gpurace CPU harness");
  facts.records_written = header.records + header.lost;
  facts.records_lost = header.lost;
  TraceSummary summary;
  summary.report = buildReport(detector, plan, facts);
  summary.records = read;
  return summary;
}

} // namespace gpurace::rt
