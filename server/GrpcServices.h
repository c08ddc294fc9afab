//===- GrpcServices.h - gRPC front of the race service ----------*- C++ -*-===//
//
// Thin: each handler reads the bearer token from the call's metadata, calls
// RaceService and maps its Status to the gRPC code of the same name.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_SERVER_GRPCSERVICES_H
#define GPURACE_SERVER_GRPCSERVICES_H

#include "gpurace/v1/service.grpc.pb.h"
#include "server/RaceService.h"

namespace gpurace {

grpc::Status toGrpc(const Status &status);

class IngestServiceImpl final : public v1::IngestService::Service {
public:
  // Runtime streams are stored and acknowledged `ack_every` reports at a
  // time, more while the store is busy (RuntimeStreamStore.h), and at the
  // end of the stream.
  IngestServiceImpl(RaceService &service, uint32_t ack_every)
      : service_(service), ack_every_(ack_every) {}

  grpc::Status UploadAnalysis(grpc::ServerContext *context,
                              const v1::UploadAnalysisRequest *request,
                              v1::UploadAnalysisResponse *response) override;
  grpc::Status ReportRuntime(
      grpc::ServerContext *context,
      grpc::ServerReaderWriter<v1::ReportRuntimeAck, v1::ReportRuntimeRequest>
          *stream) override;

private:
  RaceService &service_;
  uint32_t ack_every_;
};

class QueryServiceImpl final : public v1::QueryService::Service {
public:
  explicit QueryServiceImpl(RaceService &service) : service_(service) {}

  grpc::Status ListRaces(grpc::ServerContext *context,
                         const v1::ListRacesRequest *request,
                         v1::ListRacesResponse *response) override;
  grpc::Status GetRace(grpc::ServerContext *context,
                       const v1::GetRaceRequest *request,
                       v1::Race *response) override;
  grpc::Status ListRuns(grpc::ServerContext *context,
                        const v1::ListRunsRequest *request,
                        v1::ListRunsResponse *response) override;
  grpc::Status GetRaceHistory(grpc::ServerContext *context,
                              const v1::GetRaceHistoryRequest *request,
                              v1::GetRaceHistoryResponse *response) override;
  grpc::Status GetTrend(grpc::ServerContext *context,
                        const v1::GetTrendRequest *request,
                        v1::GetTrendResponse *response) override;
  grpc::Status SetReview(grpc::ServerContext *context,
                         const v1::SetReviewRequest *request,
                         v1::Race *response) override;

private:
  RaceService &service_;
};

class ProjectServiceImpl final : public v1::ProjectService::Service {
public:
  explicit ProjectServiceImpl(RaceService &service) : service_(service) {}

  grpc::Status ListProjects(grpc::ServerContext *context,
                            const v1::ListProjectsRequest *request,
                            v1::ListProjectsResponse *response) override;
  grpc::Status GetSummary(grpc::ServerContext *context,
                          const v1::GetSummaryRequest *request,
                          v1::Summary *response) override;
  grpc::Status GetRun(grpc::ServerContext *context,
                      const v1::GetRunRequest *request,
                      v1::RunDetail *response) override;

private:
  RaceService &service_;
};

} // namespace gpurace

#endif
