// Several servers, one PostgreSQL database: agents and CI report to
// whichever server a load balancer picks. Every acknowledged report is
// stored exactly once however the servers interleave, and a retried upload
// is recognized by the other server.
#include "server/tests/ServerTestSupport.h"

#include <grpcpp/create_channel.h>

#include <set>
#include <thread>

namespace gpurace::testing {
namespace {

constexpr int kReports = 200;

std::string fingerprintOf(int i) { return "v1:" + std::to_string(5000 + i); }

std::unique_ptr<v1::IngestService::Stub> ingestStub(const std::string &address) {
  return v1::IngestService::NewStub(
      grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
}

// Streams reports [first, last) to one server; returns the acknowledged
// upload ids.
std::set<std::string> stream(const std::string &address, int first, int last) {
  auto stub = ingestStub(address);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(60));
  auto rpc = stub->ReportRuntime(&context);
  std::thread writer([&] {
    for (int i = first; i < last; ++i)
      if (!rpc->Write(runtimeReport("agent-" + std::to_string(i),
                                    {fingerprintOf(i)})))
        return;
    rpc->WritesDone();
  });
  std::set<std::string> acked;
  v1::ReportRuntimeAck ack;
  while (rpc->Read(&ack))
    acked.insert(ack.upload_ids().begin(), ack.upload_ids().end());
  writer.join();
  EXPECT_TRUE(rpc->Finish().ok());
  return acked;
}

using SharedDatabase = PostgresTest;

TEST_F(SharedDatabase, ConcurrentIngestThroughTwoServersStoresEachReportOnce) {
  ServerProcess a(url), b(url);
  ASSERT_FALSE(a.grpcAddress().empty());
  ASSERT_FALSE(b.grpcAddress().empty());
  // Both servers get every report at the same time, as an agent's retry
  // through a load balancer would deliver it twice.
  std::set<std::string> through_a, through_b;
  std::thread to_a([&] { through_a = stream(a.grpcAddress(), 0, kReports); });
  std::thread to_b([&] { through_b = stream(b.grpcAddress(), 0, kReports); });
  to_a.join();
  to_b.join();
  EXPECT_EQ(through_a.size(), static_cast<size_t>(kReports));
  EXPECT_EQ(through_b.size(), static_cast<size_t>(kReports));

  auto store = openStore(url);
  auto races = racesByFingerprint(*store, "main");
  ASSERT_EQ(races.size(), static_cast<size_t>(kReports));
  for (const auto &[fingerprint, race] : races)
    EXPECT_EQ(race.occurrence_count(), 3u)
        << fingerprint << " was stored more than once";
  v1::ListRunsRequest runs;
  runs.set_page_size(1000);
  EXPECT_EQ(store->listRuns(runs)->runs_size(), kReports);
}

TEST_F(SharedDatabase, RetriedUploadIsRecognizedByTheOtherServer) {
  ServerProcess a(url), b(url);
  v1::UploadAnalysisRequest upload =
      analysisUpload({candidate("v1:aa"), candidate("v1:bb")}, "c1");
  upload.set_upload_id("ci-job-77");
  v1::UploadAnalysisResponse first, retried;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(ingestStub(a.grpcAddress())
                    ->UploadAnalysis(&context, upload, &first)
                    .ok());
  }
  {
    grpc::ClientContext context;
    ASSERT_TRUE(ingestStub(b.grpcAddress())
                    ->UploadAnalysis(&context, upload, &retried)
                    .ok());
  }
  EXPECT_FALSE(first.duplicate());
  EXPECT_TRUE(retried.duplicate());
  EXPECT_EQ(retried.run_id(), first.run_id());
  EXPECT_EQ(retried.races_new(), 2u);

  // What one server stored, the other serves.
  grpc::ClientContext context;
  v1::ListRacesResponse listed;
  auto query = v1::QueryService::NewStub(grpc::CreateChannel(
      b.grpcAddress(), grpc::InsecureChannelCredentials()));
  ASSERT_TRUE(query->ListRaces(&context, v1::ListRacesRequest(), &listed).ok());
  EXPECT_EQ(listed.races_size(), 2);
}

} // namespace
} // namespace gpurace::testing
