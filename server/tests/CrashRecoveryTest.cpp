// Nothing acknowledged is lost: SIGKILL the server in the middle of a
// stream of runtime reports, then check every acknowledged report is stored
// exactly once, also after the agent resends everything. On SQLite and on
// PostgreSQL.
#include "server/tests/ServerTestSupport.h"

#include <grpcpp/create_channel.h>

#include <csignal>
#include <set>
#include <thread>

namespace gpurace::testing {
namespace {

constexpr int kReports = 400;

std::string fingerprintOf(int i) { return "v1:" + std::to_string(1000 + i); }

v1::ReportRuntimeRequest report(int i) {
  return runtimeReport("agent-" + std::to_string(i), {fingerprintOf(i)});
}

// Streams every report; returns the upload ids the server acknowledged.
// `on_ack` runs after each acknowledgement.
std::set<std::string> stream(const std::string &address,
                             const std::function<void(size_t)> &on_ack) {
  auto channel = grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
  auto stub = v1::IngestService::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(60));
  auto rpc = stub->ReportRuntime(&context);
  std::thread writer([&] {
    for (int i = 0; i < kReports; ++i)
      if (!rpc->Write(report(i)))
        return;
    rpc->WritesDone();
  });
  std::set<std::string> acked;
  v1::ReportRuntimeAck ack;
  while (rpc->Read(&ack)) {
    acked.insert(ack.upload_ids().begin(), ack.upload_ids().end());
    on_ack(acked.size());
  }
  writer.join();
  rpc->Finish();
  return acked;
}

class CrashRecovery : public ::testing::TestWithParam<Backend> {};

TEST_P(CrashRecovery, AcknowledgedReportsSurviveSigkillExactlyOnce) {
  TempDir dir;
  auto fresh = freshDatabase(GetParam(), dir);
  if (!fresh)
    GTEST_SKIP() << "PostgreSQL tests skipped: "
                 << PostgresCluster::unavailableReason();
  const std::string db = *fresh;
  std::set<std::string> acked;
  {
    ServerProcess server(db);
    ASSERT_FALSE(server.grpcAddress().empty());
    acked = stream(server.grpcAddress(), [&](size_t count) {
      if (count >= 64)
        server.kill(SIGKILL);
    });
  }
  ASSERT_GE(acked.size(), 64u);

  auto check = [&](size_t expected_min) {
    auto store = openStore(db);
    auto races = racesByFingerprint(*store, "main");
    for (int i = 0; i < kReports; ++i) {
      std::string id = "agent-" + std::to_string(i);
      if (!acked.count(id))
        continue;
      auto race = races.find(fingerprintOf(i));
      ASSERT_NE(race, races.end()) << id << " was acknowledged but is lost";
      EXPECT_EQ(race->second.occurrence_count(), 3u) << id;
    }
    EXPECT_GE(races.size(), expected_min);
  };
  check(acked.size());

  // The agent resends everything; nothing is stored twice.
  ServerProcess restarted(db);
  auto all = stream(restarted.grpcAddress(), [](size_t) {});
  EXPECT_EQ(all.size(), static_cast<size_t>(kReports));
  acked = all;
  check(kReports);
}

INSTANTIATE_BACKEND_TESTS(CrashRecovery);

} // namespace
} // namespace gpurace::testing
