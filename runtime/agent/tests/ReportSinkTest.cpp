// Where reports go: the report file, a real `gpurace serve` on loopback, the
// spool when the server is unreachable, and `gpurace upload --spool` later.
#include "runtime/agent/ReportSink.h"
#include "runtime/agent/ServerReports.h"

#include "proto/JsonCodec.h"
#include "server/RuntimeSpool.h"
#include "server/tests/ServerTestSupport.h"
#include "tests/support/RunProcess.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace gpurace::rt {
namespace {

using gpurace::testing::ServerProcess;
using gpurace::testing::TempDir;

v1::RuntimeReport racyReport(const std::string &id, const std::string &fingerprint) {
  v1::RuntimeReport report;
  report.set_report_id(id);
  report.set_program("shift");
  report.mutable_launch()->set_kernel("shift");
  report.mutable_device()->set_name("host stand-in");
  v1::ObservedRace *race = report.add_races();
  race->set_fingerprint(fingerprint);
  race->set_race_class(v1::RACE_CLASS_INTER_BLOCK);
  race->set_count(1);
  race->mutable_first()->set_expression("a[i]");
  race->mutable_first()->set_kind(v1::ACCESS_KIND_WRITE);
  race->mutable_first()->mutable_location()->set_file("shift.cu");
  race->mutable_first()->mutable_location()->set_line(5);
  race->mutable_first()->mutable_location()->set_column(5);
  race->mutable_second()->set_expression("a[i + 1]");
  race->mutable_second()->set_kind(v1::ACCESS_KIND_READ);
  return report;
}

ClientOptions client(const std::string &address) {
  ClientOptions options;
  options.address = address;
  options.deadline = std::chrono::seconds(10);
  return options;
}

v1::RunMetadata metadata() {
  v1::RunMetadata m;
  m.set_project("demo");
  m.set_branch("main");
  return m;
}

size_t filesIn(const std::string &dir) {
  std::error_code ec;
  size_t n = 0;
  for (auto it = std::filesystem::directory_iterator(dir, ec);
       !ec && it != std::filesystem::directory_iterator(); ++it)
    ++n;
  return n;
}

TEST(ReportFile, AppendsOneParsableReportPerLine) {
  TempDir dir;
  {
    ReportFile file(dir.path("reports.jsonl"));
    file.add(racyReport("r-1", "v1:01"));
    file.add(racyReport("r-2", "v1:02"));
  }
  std::ifstream in(dir.path("reports.jsonl"));
  std::vector<std::string> ids;
  for (std::string line; std::getline(in, line);) {
    v1::RuntimeReport report;
    std::string error;
    ASSERT_TRUE(fromJson(line, report, error)) << error;
    ids.push_back(report.report_id());
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"r-1", "r-2"}));
}

TEST(ReportFile, UnwritableFileIsCountedNotFatal) {
  ReportFile file("/nonexistent-dir/reports.jsonl");
  file.add(racyReport("r-1", "v1:01"));
  AgentSummary summary;
  file.count(summary);
  EXPECT_EQ(summary.reports_dropped, 1u);
}

TEST(RaceLog, DescribesBothSitesAndTheClass) {
  v1::RuntimeReport report = racyReport("r-1", "v1:01");
  std::string line = describeRace(report, report.races(0));
  EXPECT_EQ(line.rfind("race in shift: write a[i] at shift.cu:5:5 / read a[i + 1] (inter-block)", 0),
            0u)
      << line;
}

TEST(ServerReports, BatchesReachTheServer) {
  TempDir dir;
  ServerProcess server(dir.path("races.db"));
  ASSERT_FALSE(server.grpcAddress().empty());
  ServerReports sink(client(server.grpcAddress()), metadata(), dir.path("spool"), 2);
  for (int i = 0; i < 3; ++i)
    sink.add(racyReport("r-" + std::to_string(i), "v1:0" + std::to_string(i)));
  sink.finish();
  AgentSummary summary;
  sink.count(summary);
  EXPECT_EQ(summary.reports_sent, 3u);
  EXPECT_EQ(summary.reports_spooled, 0u);
  auto store = gpurace::testing::openStore(dir.path("races.db"));
  auto races = gpurace::testing::racesByFingerprint(*store, "main");
  EXPECT_EQ(races.size(), 3u);
  EXPECT_EQ(races["v1:01"].status(), v1::RACE_STATUS_CONFIRMED);
}

// The server is down while the program runs: every report is spooled, and
// `gpurace upload --spool` delivers them once it is up, emptying the spool.
TEST(ServerReports, UnreachableServerSpoolsAndUploadSendsLater) {
  TempDir dir;
  std::string spool = dir.path("spool");
  {
    // Nothing listens on port 1 of the loopback: connections are refused.
    ServerReports sink(client("127.0.0.1:1"), metadata(), spool, 2);
    for (int i = 0; i < 3; ++i)
      sink.add(racyReport("r-" + std::to_string(i), "v1:1" + std::to_string(i)));
    sink.finish();
    AgentSummary summary;
    sink.count(summary);
    EXPECT_EQ(summary.reports_sent, 0u);
    EXPECT_EQ(summary.reports_spooled, 3u);
  }
  EXPECT_EQ(filesIn(spool), 3u);

  ServerProcess server(dir.path("races.db"));
  ASSERT_FALSE(server.grpcAddress().empty());
  auto upload = gpurace::testing::runProcess({gpurace::testing::gpuraceBinary(), "upload",
                                              "--spool", spool, "--server",
                                              server.grpcAddress()});
  EXPECT_EQ(upload.exit_code, 2) << upload.out << upload.err;
  EXPECT_NE(upload.out.find("3 of 3 spooled runtime reports sent"), std::string::npos)
      << upload.out;
  EXPECT_EQ(filesIn(spool), 0u);
  auto store = gpurace::testing::openStore(dir.path("races.db"));
  auto races = gpurace::testing::racesByFingerprint(*store, "main");
  EXPECT_EQ(races.size(), 3u);

  // Nothing left: a second upload sends nothing and finds nothing new.
  auto again = gpurace::testing::runProcess({gpurace::testing::gpuraceBinary(), "upload",
                                             "--spool", spool, "--server",
                                             server.grpcAddress()});
  EXPECT_EQ(again.exit_code, 0) << again.err;
}

TEST(ServerReports, UploadKeepsTheSpoolWhenTheServerIsDown) {
  TempDir dir;
  std::string spool = dir.path("spool");
  v1::ReportRuntimeRequest request;
  request.set_upload_id("r-kept");
  *request.mutable_metadata() = metadata();
  *request.mutable_report() = racyReport("r-kept", "v1:20");
  ASSERT_TRUE(spoolReport(spool, request).ok());
  auto upload = gpurace::testing::runProcess({gpurace::testing::gpuraceBinary(), "upload",
                                              "--spool", spool, "--server", "127.0.0.1:1"});
  EXPECT_EQ(upload.exit_code, 1);
  EXPECT_NE(upload.err.find("127.0.0.1:1"), std::string::npos) << upload.err;
  EXPECT_EQ(filesIn(spool), 1u);
}

} // namespace
} // namespace gpurace::rt
