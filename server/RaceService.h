//===- RaceService.h - the one layer behind gRPC and HTTP -------*- C++ -*-===//
//
// Each function authorizes the caller, scopes the request to the caller's
// project, and calls the store. The gRPC and HTTP handlers only translate
// to and from this interface, so both transports behave the same.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_SERVER_RACESERVICE_H
#define GPURACE_SERVER_RACESERVICE_H

#include "server/Authorizer.h"
#include "storage/RaceStore.h"

namespace gpurace {

struct ServiceLimits {
  // Candidates in one upload, observations in one runtime report.
  uint32_t max_candidates = 100000;
  uint32_t max_observations = 100000;
};

class RaceService {
public:
  RaceService(RaceStore &store, AuthPolicy policy, ServiceLimits limits = {})
      : store_(store), auth_(store, policy), limits_(limits) {}

  Result<v1::UploadAnalysisResponse>
  uploadAnalysis(const Caller &caller, const v1::UploadAnalysisRequest &request);
  // Authorizes a runtime stream once, before its first report.
  Result<Principal> authorizeRuntime(const Caller &caller);
  // Whether `principal` may store `request`, it is within the limits and
  // it is well formed (what the store would refuse is refused here).
  Status checkRuntime(const Principal &principal,
                      const v1::ReportRuntimeRequest &request) const;
  Result<RuntimeIngestResult>
  reportRuntime(const Principal &principal,
                const v1::ReportRuntimeRequest &request);
  // Reports that passed checkRuntime, stored in one transaction.
  Result<std::vector<RuntimeIngestResult>>
  reportRuntimeBatch(const std::vector<v1::ReportRuntimeRequest> &requests);

  Result<v1::ListProjectsResponse> listProjects(const Caller &caller);
  Result<v1::Summary> getSummary(const Caller &caller,
                                 v1::GetSummaryRequest request);
  Result<v1::ListRacesResponse> listRaces(const Caller &caller,
                                          v1::ListRacesRequest request);
  Result<v1::Race> getRace(const Caller &caller,
                           const v1::GetRaceRequest &request);
  Result<v1::GetRaceHistoryResponse>
  getRaceHistory(const Caller &caller,
                 const v1::GetRaceHistoryRequest &request);
  Result<v1::ListRunsResponse> listRuns(const Caller &caller,
                                        v1::ListRunsRequest request);
  Result<v1::RunDetail> getRun(const Caller &caller,
                               const v1::GetRunRequest &request);
  Result<v1::GetTrendResponse> getTrend(const Caller &caller,
                                        v1::GetTrendRequest request);
  Result<v1::Race> setReview(const Caller &caller,
                             const v1::SetReviewRequest &request);
  Result<PruneResult> prune(const Caller &caller, uint32_t keep_runs);

private:
  // Authorizes a read and narrows `project` to the caller's own project
  // when the caller is bound to one.
  Result<Principal> authorizeRead(const Caller &caller, std::string &project);
  // Authorizes access to one race, which names its project only once read.
  Status authorizeRace(const Caller &caller, int64_t race_id, Role needed);

  RaceStore &store_;
  Authorizer auth_;
  ServiceLimits limits_;
};

} // namespace gpurace

#endif
