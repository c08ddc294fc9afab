#include "server/RaceService.h"

#include "storage/Validation.h"

namespace gpurace {

Result<v1::UploadAnalysisResponse>
RaceService::uploadAnalysis(const Caller &caller,
                            const v1::UploadAnalysisRequest &request) {
  auto principal = auth_.authorize(caller, Role::kStore);
  if (!principal.ok())
    return principal.status();
  if (Status s = Authorizer::checkProject(*principal,
                                          request.metadata().project());
      !s.ok())
    return s;
  if (static_cast<uint32_t>(request.result().candidates_size()) >
      limits_.max_candidates)
    return Status{StatusCode::kInvalidArgument,
                  "result.candidates: " +
                      std::to_string(request.result().candidates_size()) +
                      " candidates, over the limit of " +
                      std::to_string(limits_.max_candidates)};
  return store_.uploadAnalysis(request);
}

Result<Principal> RaceService::authorizeRuntime(const Caller &caller) {
  return auth_.authorize(caller, Role::kStore);
}

Status RaceService::checkRuntime(const Principal &principal,
                                 const v1::ReportRuntimeRequest &request) const {
  if (Status s = Authorizer::checkProject(principal,
                                          request.metadata().project());
      !s.ok())
    return s;
  if (static_cast<uint32_t>(request.report().races_size()) >
      limits_.max_observations)
    return Status{StatusCode::kInvalidArgument,
                  "report.races: over the limit of " +
                      std::to_string(limits_.max_observations)};
  // Checked as each report arrives, so that a stream's batches stored
  // together are not refused together for one bad report.
  return storage::validateRuntimeReport(request);
}

Result<RuntimeIngestResult>
RaceService::reportRuntime(const Principal &principal,
                           const v1::ReportRuntimeRequest &request) {
  if (Status s = checkRuntime(principal, request); !s.ok())
    return s;
  return store_.reportRuntime(request);
}

Result<std::vector<RuntimeIngestResult>> RaceService::reportRuntimeBatch(
    const std::vector<v1::ReportRuntimeRequest> &requests) {
  return store_.reportRuntimeBatch(requests);
}

Result<Principal> RaceService::authorizeRead(const Caller &caller,
                                             std::string &project) {
  auto principal = auth_.authorize(caller, Role::kRead);
  if (!principal.ok())
    return principal;
  if (project.empty())
    project = principal->project;
  if (Status s = Authorizer::checkProject(*principal, project); !s.ok())
    return s;
  return principal;
}

Status RaceService::authorizeRace(const Caller &caller, int64_t race_id,
                                  Role needed) {
  auto principal = auth_.authorize(caller, needed);
  if (!principal.ok())
    return principal.status();
  if (principal->project.empty())
    return {};
  v1::GetRaceRequest which;
  which.set_id(race_id);
  auto race = store_.getRace(which);
  if (!race.ok())
    return race.status();
  return Authorizer::checkProject(*principal, race->project());
}

Result<v1::ListProjectsResponse>
RaceService::listProjects(const Caller &caller) {
  std::string project;
  auto principal = authorizeRead(caller, project);
  if (!principal.ok())
    return principal.status();
  if (!project.empty()) {
    v1::ListProjectsResponse own;
    own.add_projects(project);
    return own;
  }
  return store_.listProjects();
}

Result<v1::Summary> RaceService::getSummary(const Caller &caller,
                                            v1::GetSummaryRequest request) {
  if (auto p = authorizeRead(caller, *request.mutable_project()); !p.ok())
    return p.status();
  return store_.getSummary(request);
}

Result<v1::ListRacesResponse>
RaceService::listRaces(const Caller &caller, v1::ListRacesRequest request) {
  if (auto p = authorizeRead(caller, *request.mutable_filter()->mutable_project());
      !p.ok())
    return p.status();
  return store_.listRaces(request);
}

Result<v1::Race> RaceService::getRace(const Caller &caller,
                                      const v1::GetRaceRequest &request) {
  auto principal = auth_.authorize(caller, Role::kRead);
  if (!principal.ok())
    return principal.status();
  auto race = store_.getRace(request);
  if (!race.ok())
    return race;
  // A race of another project is reported as absent, not as forbidden.
  if (!Authorizer::checkProject(*principal, race->project()).ok())
    return Status::notFound("race not found");
  return race;
}

Result<v1::GetRaceHistoryResponse>
RaceService::getRaceHistory(const Caller &caller,
                            const v1::GetRaceHistoryRequest &request) {
  if (Status s = authorizeRace(caller, request.id(), Role::kRead); !s.ok())
    return s;
  return store_.getRaceHistory(request);
}

Result<v1::ListRunsResponse> RaceService::listRuns(const Caller &caller,
                                                   v1::ListRunsRequest request) {
  if (auto p = authorizeRead(caller, *request.mutable_project()); !p.ok())
    return p.status();
  return store_.listRuns(request);
}

Result<v1::RunDetail> RaceService::getRun(const Caller &caller,
                                          const v1::GetRunRequest &request) {
  auto principal = auth_.authorize(caller, Role::kRead);
  if (!principal.ok())
    return principal.status();
  auto run = store_.getRun(request);
  if (run.ok() &&
      !Authorizer::checkProject(*principal, run->run().metadata().project())
           .ok())
    return Status::notFound("run_id: no run '" + request.run_id() + "'");
  return run;
}

Result<v1::GetTrendResponse> RaceService::getTrend(const Caller &caller,
                                                   v1::GetTrendRequest request) {
  if (auto p = authorizeRead(caller, *request.mutable_project()); !p.ok())
    return p.status();
  return store_.getTrend(request);
}

Result<v1::Race> RaceService::setReview(const Caller &caller,
                                        const v1::SetReviewRequest &request) {
  if (Status s = authorizeRace(caller, request.race_id(), Role::kStore);
      !s.ok())
    return s;
  return store_.setReview(request);
}

Result<PruneResult> RaceService::prune(const Caller &caller,
                                       uint32_t keep_runs) {
  auto principal = auth_.authorize(caller, Role::kAdmin);
  if (!principal.ok())
    return principal.status();
  if (!principal->project.empty())
    return Status{StatusCode::kPermissionDenied,
                  "pruning needs an admin token for every project"};
  return store_.prune(keep_runs);
}

} // namespace gpurace
