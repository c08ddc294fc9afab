//===- RaceClient.h - calling a race server over gRPC -----------*- C++ -*-===//
//
// What `gpurace upload` and `gpurace races` use: one channel, the bearer
// token on every call, a deadline on every call.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_SERVER_RACECLIENT_H
#define GPURACE_SERVER_RACECLIENT_H

#include "gpurace/v1/service.grpc.pb.h"
#include "storage/Status.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace gpurace {

struct ClientOptions {
  std::string address = "127.0.0.1:50551";
  std::string token;
  // PEM file of the CA that signed the server's certificate; empty: plain
  // text.
  std::string tls_ca;
  std::chrono::seconds deadline{60};
};

// What the server acknowledged of a stream of runtime reports. `status` is
// not ok when the stream ended early; the acknowledged ids are stored even
// then, and only the others need to be sent again.
struct RuntimeUploadOutcome {
  std::vector<std::string> acknowledged;
  uint32_t races_confirmed = 0;
  Status status;
};

class RaceClient {
public:
  explicit RaceClient(const ClientOptions &options);

  Result<v1::UploadAnalysisResponse>
  uploadAnalysis(const v1::UploadAnalysisRequest &request);
  Result<v1::ListRacesResponse> listRaces(const v1::ListRacesRequest &request);
  Result<v1::Race> getRace(const v1::GetRaceRequest &request);
  Result<v1::Race> setReview(const v1::SetReviewRequest &request);
  // Streams `requests` in one ReportRuntime call under one deadline.
  RuntimeUploadOutcome
  reportRuntime(const std::vector<v1::ReportRuntimeRequest> &requests);

private:
  void prepare(grpc::ClientContext &context) const;

  ClientOptions options_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::IngestService::Stub> ingest_;
  std::unique_ptr<v1::QueryService::Stub> query_;
};

// A gRPC status as a Status; UNAVAILABLE and DEADLINE_EXCEEDED name the
// address so that a user sees where it tried.
Status fromGrpc(const grpc::Status &status, const std::string &address);

} // namespace gpurace

#endif
