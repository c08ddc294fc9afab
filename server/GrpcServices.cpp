#include "server/GrpcServices.h"

#include "server/RuntimeStreamStore.h"

#include <algorithm>

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
  // Reports are stored a batch at a time while the stream goes on being
  // read (RuntimeStreamStore.h), and only stored reports are acknowledged:
  // an agent resends the rest.
  RuntimeStreamStore store(service_, *stream);
  std::vector<v1::ReportRuntimeRequest> batch;
  v1::ReportRuntimeRequest request;
  while (stream->Read(&request)) {
    if (Status s = service_.checkRuntime(*principal, request); !s.ok()) {
      store.push(std::move(batch));
      store.finish();
      return toGrpc(s);
    }
    batch.push_back(std::move(request));
    if (batch.size() >= std::max<uint32_t>(ack_every_, 1)) {
      if (!store.push(std::move(batch)))
        return store.finish();
      batch.clear();
    }
  }
  if (!batch.empty())
    store.push(std::move(batch));
  return store.finish();
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
