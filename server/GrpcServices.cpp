#include "server/GrpcServices.h"

namespace gpurace {

grpc::Status toGrpc(const Status &status) {
  switch (status.code) {
  case StatusCode::kOk:
    return grpc::Status::OK;
  case StatusCode::kInvalidArgument:
    return {grpc::StatusCode::INVALID_ARGUMENT, status.message};
  case StatusCode::kNotFound:
    return {grpc::StatusCode::NOT_FOUND, status.message};
  case StatusCode::kUnauthenticated:
    return {grpc::StatusCode::UNAUTHENTICATED, status.message};
  case StatusCode::kPermissionDenied:
    return {grpc::StatusCode::PERMISSION_DENIED, status.message};
  case StatusCode::kResourceExhausted:
    return {grpc::StatusCode::RESOURCE_EXHAUSTED, status.message};
  case StatusCode::kFailedPrecondition:
    return {grpc::StatusCode::FAILED_PRECONDITION, status.message};
  case StatusCode::kUnavailable:
    return {grpc::StatusCode::UNAVAILABLE, status.message};
  case StatusCode::kInternal:
    return {grpc::StatusCode::INTERNAL, status.message};
  }
  return {grpc::StatusCode::UNKNOWN, status.message};
}

namespace {

Caller callerOf(const grpc::ServerContext *context) {
  Caller caller;
  const auto &metadata = context->client_metadata();
  auto found = metadata.find("authorization");
  if (found == metadata.end())
    return caller;
  std::string value(found->second.data(), found->second.size());
  const std::string bearer = "Bearer ";
  caller.token = value.compare(0, bearer.size(), bearer) == 0
                     ? value.substr(bearer.size())
                     : value;
  return caller;
}

// Copies a successful result into the response, or returns its status.
template <typename T, typename Response>
grpc::Status reply(Result<T> result, Response *response) {
  if (!result.ok())
    return toGrpc(result.status());
  *response = std::move(result.value());
  return grpc::Status::OK;
}

} // namespace

grpc::Status
IngestServiceImpl::UploadAnalysis(grpc::ServerContext *context,
                                  const v1::UploadAnalysisRequest *request,
                                  v1::UploadAnalysisResponse *response) {
  return reply(service_.uploadAnalysis(callerOf(context), *request), response);
}

grpc::Status IngestServiceImpl::ReportRuntime(
    grpc::ServerContext *context,
    grpc::ServerReaderWriter<v1::ReportRuntimeAck, v1::ReportRuntimeRequest>
        *stream) {
  auto principal = service_.authorizeRuntime(callerOf(context));
  if (!principal.ok())
    return toGrpc(principal.status());
  v1::ReportRuntimeAck pending;
  // Only stored reports are acknowledged: an agent resends the rest.
  auto flush = [&] {
    if (pending.upload_ids_size() == 0)
      return true;
    bool sent = stream->Write(pending);
    pending.Clear();
    return sent;
  };
  v1::ReportRuntimeRequest request;
  while (stream->Read(&request)) {
    auto stored = service_.reportRuntime(*principal, request);
    if (!stored.ok()) {
      flush();
      return toGrpc(stored.status());
    }
    pending.add_upload_ids(request.upload_id());
    pending.set_races_confirmed(pending.races_confirmed() +
                                stored->races_confirmed);
    if (static_cast<uint32_t>(pending.upload_ids_size()) >= ack_every_ &&
        !flush())
      return {grpc::StatusCode::UNAVAILABLE, "client went away"};
  }
  flush();
  return grpc::Status::OK;
}

grpc::Status QueryServiceImpl::ListRaces(grpc::ServerContext *context,
                                         const v1::ListRacesRequest *request,
                                         v1::ListRacesResponse *response) {
  return reply(service_.listRaces(callerOf(context), *request), response);
}

grpc::Status QueryServiceImpl::GetRace(grpc::ServerContext *context,
                                       const v1::GetRaceRequest *request,
                                       v1::Race *response) {
  return reply(service_.getRace(callerOf(context), *request), response);
}

grpc::Status QueryServiceImpl::ListRuns(grpc::ServerContext *context,
                                        const v1::ListRunsRequest *request,
                                        v1::ListRunsResponse *response) {
  return reply(service_.listRuns(callerOf(context), *request), response);
}

grpc::Status
QueryServiceImpl::GetRaceHistory(grpc::ServerContext *context,
                                 const v1::GetRaceHistoryRequest *request,
                                 v1::GetRaceHistoryResponse *response) {
  return reply(service_.getRaceHistory(callerOf(context), *request), response);
}

grpc::Status QueryServiceImpl::GetTrend(grpc::ServerContext *context,
                                        const v1::GetTrendRequest *request,
                                        v1::GetTrendResponse *response) {
  return reply(service_.getTrend(callerOf(context), *request), response);
}

grpc::Status QueryServiceImpl::SetReview(grpc::ServerContext *context,
                                         const v1::SetReviewRequest *request,
                                         v1::Race *response) {
  return reply(service_.setReview(callerOf(context), *request), response);
}

grpc::Status
ProjectServiceImpl::ListProjects(grpc::ServerContext *context,
                                 const v1::ListProjectsRequest *,
                                 v1::ListProjectsResponse *response) {
  return reply(service_.listProjects(callerOf(context)), response);
}

grpc::Status ProjectServiceImpl::GetSummary(grpc::ServerContext *context,
                                            const v1::GetSummaryRequest *request,
                                            v1::Summary *response) {
  return reply(service_.getSummary(callerOf(context), *request), response);
}

grpc::Status ProjectServiceImpl::GetRun(grpc::ServerContext *context,
                                        const v1::GetRunRequest *request,
                                        v1::RunDetail *response) {
  return reply(service_.getRun(callerOf(context), *request), response);
}

} // namespace gpurace
