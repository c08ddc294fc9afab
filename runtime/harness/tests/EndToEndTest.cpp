// rewrite -> record -> detect -> report, without a GPU: each test
// instruments a kernel from its plan, compiles it with the host compiler
// against the CPU harness, runs it, and feeds the trace to the detector.
#include "runtime/instrument/Instrumenter.h"
#include "runtime/report/BufferReport.h"

#include "tests/support/RunProcess.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <set>

namespace gpurace::rt {
namespace {

const std::string kInputs = GPURACE_HARNESS_TEST_INPUTS;

struct Outcome {
  v1::RuntimeReport report;
  uint64_t records = 0;
};

// Reads the harness's trace file: dims, then the buffer as the agent would
// copy it back from the GPU.
bool runTrace(const std::string &path, const SitePlan &plan, Outcome &out) {
  std::ifstream in(path, std::ios::binary);
  unsigned dims[6];
  if (!in.read(reinterpret_cast<char *>(dims), sizeof dims))
    return false;
  std::string buffer((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LaunchLayout layout({dims[0], dims[1], dims[2]}, {dims[3], dims[4], dims[5]});
  LaunchFacts facts;
  facts.kernel = plan.plan().kernels(0);
  std::string error;
  if (!reportFromBuffer(buffer.data(), buffer.size(), layout, plan, facts, out.report, error)) {
    ADD_FAILURE() << path << ": " << error;
    return false;
  }
  out.records = out.report.coverage().records_written();
  return true;
}

Outcome instrumentRunDetect(const std::string &name, const std::string &driver_macro) {
  Outcome outcome;
  std::string error;
  auto plan = SitePlan::load(kInputs + "/" + name + ".plan.json", error);
  EXPECT_TRUE(plan) << error;
  if (!plan)
    return outcome;
  std::string dir = ::testing::TempDir();
  std::string instrumented = dir + name + ".instrumented.cu";
  InstrumentOutcome o = instrumentFile(*plan, kInputs + "/" + name + ".cu", instrumented,
                                       {}, GPURACE_DEVICE_RUNTIME_HEADER);
  EXPECT_TRUE(o.ok) << o.error;
  EXPECT_TRUE(o.unmatched.empty());
  std::string binary = dir + name + ".harness";
  testing::ProcessResult built = testing::runProcess(
      {GPURACE_HOST_CXX, "-std=c++17", "-O1", "-pthread", "-I", GPURACE_SOURCE_DIR,
       "-include", GPURACE_SOURCE_DIR "/runtime/harness/CpuCuda.h", "-D" + driver_macro,
       "-x", "c++", instrumented, kInputs + "/drivers.cpp", "-o", binary});
  EXPECT_EQ(built.exit_code, 0) << built.err;
  std::string trace = dir + name + ".trace";
  testing::ProcessResult ran = testing::runProcess({binary, trace});
  EXPECT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_TRUE(runTrace(trace, *plan, outcome)) << "unreadable trace " << trace;
  return outcome;
}

TEST(EndToEndTest, RacyShiftIsConfirmedAtEveryLevelWithItsSites) {
  Outcome o = instrumentRunDetect("shift_racy", "DRIVE_SHIFT");
  ASSERT_GT(o.records, 0u);
  EXPECT_EQ(o.report.coverage().records_lost(), 0u);
  std::set<v1::RaceClass> classes;
  for (const v1::ObservedRace &race : o.report.races()) {
    std::set<std::string> sites = {race.first().site_id(), race.second().site_id()};
    EXPECT_EQ(sites, (std::set<std::string>{"s-5d1e0c2a9b7f4e01", "s-5d1e0c2a9b7f4e02"}));
    EXPECT_EQ(race.fingerprint(),
              raceFingerprint(race.first(), race.second(), race.race_class()));
    classes.insert(race.race_class());
    if (race.race_class() == v1::RACE_CLASS_INTER_BLOCK) {
      // Thread 63 of block 0 reads a[64], thread 0 of block 1 writes it.
      std::set<uint32_t> blocks = {race.witness().first().block_idx().x(),
                                   race.witness().second().block_idx().x()};
      EXPECT_EQ(blocks, (std::set<uint32_t>{0, 1}));
    }
  }
  EXPECT_EQ(classes, (std::set<v1::RaceClass>{v1::RACE_CLASS_INTRA_WARP,
                                              v1::RACE_CLASS_INTRA_BLOCK,
                                              v1::RACE_CLASS_INTER_BLOCK}));
}

TEST(EndToEndTest, TiledShiftWithBarrierReportsNothing) {
  Outcome o = instrumentRunDetect("tile_racefree", "DRIVE_TILED");
  // 2 blocks x 64 threads x 4 accesses + 128 barrier arrivals, one per thread.
  EXPECT_EQ(o.records, 2u * 64 * 5);
  EXPECT_EQ(o.report.races_size(), 0) << o.report.DebugString();
}

} // namespace
} // namespace gpurace::rt
