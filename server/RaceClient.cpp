#include "server/RaceClient.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <fstream>
#include <sstream>
#include <thread>

namespace gpurace {

namespace {

std::shared_ptr<grpc::ChannelCredentials>
credentialsFor(const ClientOptions &options) {
  if (options.tls_ca.empty())
    return grpc::InsecureChannelCredentials();
  std::ifstream in(options.tls_ca);
  std::stringstream pem;
  pem << in.rdbuf();
  grpc::SslCredentialsOptions ssl;
  ssl.pem_root_certs = pem.str();
  return grpc::SslCredentials(ssl);
}

} // namespace

Status fromGrpc(const grpc::Status &status, const std::string &address) {
  switch (status.error_code()) {
  case grpc::StatusCode::OK:
    return {};
  case grpc::StatusCode::INVALID_ARGUMENT:
    return {StatusCode::kInvalidArgument, status.error_message()};
  case grpc::StatusCode::NOT_FOUND:
    return {StatusCode::kNotFound, status.error_message()};
  case grpc::StatusCode::UNAUTHENTICATED:
    return {StatusCode::kUnauthenticated, status.error_message()};
  case grpc::StatusCode::PERMISSION_DENIED:
    return {StatusCode::kPermissionDenied, status.error_message()};
  case grpc::StatusCode::RESOURCE_EXHAUSTED:
    return {StatusCode::kResourceExhausted, status.error_message()};
  case grpc::StatusCode::FAILED_PRECONDITION:
    return {StatusCode::kFailedPrecondition, status.error_message()};
  case grpc::StatusCode::UNAVAILABLE:
  case grpc::StatusCode::DEADLINE_EXCEEDED:
    return Status::internal("cannot reach the server at " + address + ": " +
                            status.error_message());
  default:
    return Status::internal(status.error_message());
  }
}

RaceClient::RaceClient(const ClientOptions &options)
    : options_(options),
      channel_(grpc::CreateChannel(options.address, credentialsFor(options))),
      ingest_(v1::IngestService::NewStub(channel_)),
      query_(v1::QueryService::NewStub(channel_)) {}

void RaceClient::prepare(grpc::ClientContext &context) const {
  context.set_deadline(std::chrono::system_clock::now() + options_.deadline);
  if (!options_.token.empty())
    context.AddMetadata("authorization", "Bearer " + options_.token);
}

Result<v1::UploadAnalysisResponse>
RaceClient::uploadAnalysis(const v1::UploadAnalysisRequest &request) {
  grpc::ClientContext context;
  prepare(context);
  v1::UploadAnalysisResponse response;
  grpc::Status status = ingest_->UploadAnalysis(&context, request, &response);
  if (!status.ok())
    return fromGrpc(status, options_.address);
  return response;
}

Result<v1::ListRacesResponse>
RaceClient::listRaces(const v1::ListRacesRequest &request) {
  grpc::ClientContext context;
  prepare(context);
  v1::ListRacesResponse response;
  grpc::Status status = query_->ListRaces(&context, request, &response);
  if (!status.ok())
    return fromGrpc(status, options_.address);
  return response;
}

Result<v1::Race> RaceClient::getRace(const v1::GetRaceRequest &request) {
  grpc::ClientContext context;
  prepare(context);
  v1::Race response;
  grpc::Status status = query_->GetRace(&context, request, &response);
  if (!status.ok())
    return fromGrpc(status, options_.address);
  return response;
}

Result<v1::Race> RaceClient::setReview(const v1::SetReviewRequest &request) {
  grpc::ClientContext context;
  prepare(context);
  v1::Race response;
  grpc::Status status = query_->SetReview(&context, request, &response);
  if (!status.ok())
    return fromGrpc(status, options_.address);
  return response;
}

RuntimeUploadOutcome
RaceClient::reportRuntime(const std::vector<v1::ReportRuntimeRequest> &requests) {
  RuntimeUploadOutcome outcome;
  grpc::ClientContext context;
  prepare(context);
  auto stream = ingest_->ReportRuntime(&context);
  // The server acknowledges while it reads: write from another thread so
  // that neither side waits on a full window.
  std::thread writer([&] {
    for (const v1::ReportRuntimeRequest &request : requests)
      if (!stream->Write(request))
        return;
    stream->WritesDone();
  });
  v1::ReportRuntimeAck ack;
  while (stream->Read(&ack)) {
    outcome.acknowledged.insert(outcome.acknowledged.end(),
                                ack.upload_ids().begin(), ack.upload_ids().end());
    outcome.races_confirmed += ack.races_confirmed();
  }
  writer.join();
  outcome.status = fromGrpc(stream->Finish(), options_.address);
  if (outcome.status.ok() && outcome.acknowledged.size() < requests.size())
    outcome.status = Status::internal("the server acknowledged " +
                                      std::to_string(outcome.acknowledged.size()) +
                                      " of " + std::to_string(requests.size()) +
                                      " runtime reports");
  return outcome;
}

} // namespace gpurace
