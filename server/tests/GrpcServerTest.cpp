// The gRPC side on a real server on 127.0.0.1: ingest, queries, the runtime
// stream, auth and limits.
#include "server/tests/ServerTestSupport.h"

#include <grpcpp/create_channel.h>

namespace gpurace::testing {
namespace {

class GrpcServerTest : public ::testing::Test {
protected:
  TempDir dir;
  ServerConfig config = loopbackConfig(dir.path("races.db"));
  std::unique_ptr<RaceServer> server;
  std::shared_ptr<grpc::Channel> channel;

  void start() {
    server = startServer(config);
    ASSERT_TRUE(server);
    channel = grpc::CreateChannel(server->grpcAddress(),
                                  grpc::InsecureChannelCredentials());
  }

  std::unique_ptr<grpc::ClientContext> context(const std::string &token = "") {
    auto c = std::make_unique<grpc::ClientContext>();
    c->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    if (!token.empty())
      c->AddMetadata("authorization", "Bearer " + token);
    return c;
  }

  grpc::Status upload(const v1::UploadAnalysisRequest &request,
                      const std::string &token = "",
                      v1::UploadAnalysisResponse *out = nullptr) {
    v1::UploadAnalysisResponse response;
    auto stub = v1::IngestService::NewStub(channel);
    return stub->UploadAnalysis(context(token).get(), request,
                                out ? out : &response);
  }
};

TEST_F(GrpcServerTest, UploadThenQuery) {
  start();
  v1::UploadAnalysisResponse response;
  ASSERT_TRUE(upload(analysisUpload({candidate("v1:aa"), candidate("v1:bb")},
                                    "c1"),
                     "", &response)
                  .ok());
  EXPECT_EQ(response.races_new(), 2u);

  auto query = v1::QueryService::NewStub(channel);
  v1::ListRacesRequest list;
  list.mutable_filter()->set_project("demo");
  list.set_order_by("-score");
  v1::ListRacesResponse races;
  ASSERT_TRUE(query->ListRaces(context().get(), list, &races).ok());
  ASSERT_EQ(races.races_size(), 2);

  v1::GetRaceRequest get;
  get.set_id(races.races(0).id());
  v1::Race race;
  ASSERT_TRUE(query->GetRace(context().get(), get, &race).ok());
  EXPECT_EQ(race.candidate().first().excerpt().lines_size(), 2);

  auto projects = v1::ProjectService::NewStub(channel);
  v1::Summary summary;
  v1::GetSummaryRequest summary_request;
  summary_request.set_project("demo");
  ASSERT_TRUE(
      projects->GetSummary(context().get(), summary_request, &summary).ok());
  EXPECT_EQ(summary.total(), 2u);
}

TEST_F(GrpcServerTest, InvalidUploadIsInvalidArgumentNamingTheField) {
  start();
  auto status = upload(analysisUpload({candidate("oops")}, "c1"));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("result.candidates[0].fingerprint"),
            std::string::npos);
}

TEST_F(GrpcServerTest, RuntimeStreamIsAcknowledgedAndConfirms) {
  config.ack_every = 2;
  start();
  ASSERT_TRUE(upload(analysisUpload({candidate("v1:aa")}, "c1")).ok());
  auto stub = v1::IngestService::NewStub(channel);
  auto ctx = context();
  auto stream = stub->ReportRuntime(ctx.get());
  for (int i = 0; i < 5; ++i)
    ASSERT_TRUE(stream->Write(runtimeReport("r" + std::to_string(i), {"v1:aa"})));
  stream->WritesDone();
  std::vector<std::string> acked;
  uint32_t confirmed = 0;
  v1::ReportRuntimeAck ack;
  while (stream->Read(&ack)) {
    acked.insert(acked.end(), ack.upload_ids().begin(), ack.upload_ids().end());
    confirmed += ack.races_confirmed();
  }
  ASSERT_TRUE(stream->Finish().ok());
  EXPECT_EQ(acked, (std::vector<std::string>{"r0", "r1", "r2", "r3", "r4"}));
  EXPECT_EQ(confirmed, 1u);
  auto races = racesByFingerprint(server->store(), "main");
  EXPECT_EQ(races["v1:aa"].status(), v1::RACE_STATUS_CONFIRMED);
}

// Batches are stored while the stream is read, several at once when they
// queue: a malformed report refuses itself, never the reports before it.
TEST_F(GrpcServerTest, ABadReportEndsTheStreamAfterEveryReportBeforeItIsStored) {
  config.ack_every = 3;
  start();
  auto stub = v1::IngestService::NewStub(channel);
  auto ctx = context();
  auto stream = stub->ReportRuntime(ctx.get());
  std::vector<std::string> sent;
  for (int i = 0; i < 40; ++i) {
    sent.push_back("r" + std::to_string(i));
    ASSERT_TRUE(stream->Write(runtimeReport(sent.back(), {"v1:" + std::to_string(i % 7)})));
  }
  stream->Write(runtimeReport("bad", {"no-version"}));
  stream->Write(runtimeReport("after", {"v1:aa"}));
  stream->WritesDone();
  std::vector<std::string> acked;
  v1::ReportRuntimeAck ack;
  while (stream->Read(&ack))
    acked.insert(acked.end(), ack.upload_ids().begin(), ack.upload_ids().end());
  grpc::Status status = stream->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("report.races[0].fingerprint"), std::string::npos);
  EXPECT_EQ(acked, sent);
  v1::ListRunsRequest runs;
  runs.set_project("demo");
  runs.set_page_size(100);
  auto listed = server->store().listRuns(runs);
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(listed->runs_size(), 40);
}

TEST_F(GrpcServerTest, TokensAndRoles) {
  start();
  auto reader = server->store().createToken("dash", "", Role::kRead);
  auto writer = server->store().createToken("ci", "demo", Role::kStore);
  ASSERT_TRUE(reader.ok() && writer.ok());
  auto request = analysisUpload({candidate("v1:aa")}, "c1");

  EXPECT_EQ(upload(request).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(upload(request, "grt_wrong").error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  auto denied = upload(request, reader->secret);
  EXPECT_EQ(denied.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_NE(denied.error_message().find("needs role store"), std::string::npos);
  EXPECT_TRUE(upload(request, writer->secret).ok());
  auto other = analysisUpload({candidate("v1:aa")}, "c1", "main", "other");
  EXPECT_EQ(upload(other, writer->secret).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);

  auto query = v1::QueryService::NewStub(channel);
  v1::ListRacesResponse races;
  EXPECT_EQ(query->ListRaces(context().get(), {}, &races).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_TRUE(query->ListRaces(context(reader->secret).get(), {}, &races).ok());
  EXPECT_EQ(races.races_size(), 1);
}

TEST_F(GrpcServerTest, PublicReadNeedsNoTokenForQueries) {
  config.require_auth = true;
  config.public_read = true;
  start();
  auto query = v1::QueryService::NewStub(channel);
  v1::ListRacesResponse races;
  EXPECT_TRUE(query->ListRaces(context().get(), {}, &races).ok());
  EXPECT_EQ(upload(analysisUpload({}, "c1")).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
}

TEST_F(GrpcServerTest, OversizedMessageIsRefused) {
  config.max_request_bytes = 4096;
  start();
  auto c = candidate("v1:aa");
  c.set_message(std::string(10000, 'x'));
  auto status = upload(analysisUpload({c}, "c1"));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_TRUE(racesByFingerprint(server->store(), "main").empty());
}

} // namespace
} // namespace gpurace::testing
