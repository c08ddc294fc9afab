//===- RaceStore.h - the storage interface the server calls -----*- C++ -*-===//
//
// Everything the server stores or asks goes through this interface, in the
// messages of service.proto. SqlRaceStore implements it on SQLite and on
// PostgreSQL.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_STORAGE_RACESTORE_H
#define GPURACE_STORAGE_RACESTORE_H

#include "gpurace/v1/service.pb.h"
#include "storage/Status.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurace {

// Ordered: a higher role may do everything a lower one may.
enum class Role { kRead = 1, kStore = 2, kAdmin = 3 };

const char *roleName(Role role);
std::optional<Role> parseRole(const std::string &name);

struct TokenInfo {
  int64_t id = 0;
  std::string name;
  // Empty: every project.
  std::string project;
  Role role = Role::kRead;
  int64_t created_at_us = 0;
  bool revoked = false;
};

struct CreatedToken {
  TokenInfo info;
  // The secret, shown once; only its hash is stored.
  std::string secret;
};

struct RuntimeIngestResult {
  std::string run_id;
  uint32_t races_confirmed = 0;
  uint32_t observations = 0;
  bool duplicate = false;
};

struct PruneResult {
  uint32_t runs_deleted = 0;
  uint32_t races_deleted = 0;
};

class RaceStore {
public:
  virtual ~RaceStore() = default;

  // Ingest. Both are idempotent on the request's upload_id.
  virtual Result<v1::UploadAnalysisResponse>
  uploadAnalysis(const v1::UploadAnalysisRequest &request) = 0;
  virtual Result<RuntimeIngestResult>
  reportRuntime(const v1::ReportRuntimeRequest &request) = 0;
  // Stores several reports in one transaction, all or none: one commit
  // (one fsync) per batch of a runtime stream instead of one per report.
  virtual Result<std::vector<RuntimeIngestResult>>
  reportRuntimeBatch(const std::vector<v1::ReportRuntimeRequest> &requests) = 0;

  // Queries.
  virtual Result<v1::ListProjectsResponse> listProjects() = 0;
  virtual Result<v1::Summary>
  getSummary(const v1::GetSummaryRequest &request) = 0;
  virtual Result<v1::ListRacesResponse>
  listRaces(const v1::ListRacesRequest &request) = 0;
  virtual Result<v1::Race> getRace(const v1::GetRaceRequest &request) = 0;
  virtual Result<v1::GetRaceHistoryResponse>
  getRaceHistory(const v1::GetRaceHistoryRequest &request) = 0;
  virtual Result<v1::ListRunsResponse>
  listRuns(const v1::ListRunsRequest &request) = 0;
  virtual Result<v1::RunDetail> getRun(const v1::GetRunRequest &request) = 0;
  virtual Result<v1::GetTrendResponse>
  getTrend(const v1::GetTrendRequest &request) = 0;

  // Triage.
  virtual Result<v1::Race> setReview(const v1::SetReviewRequest &request) = 0;

  // API tokens.
  virtual Result<CreatedToken> createToken(const std::string &name,
                                           const std::string &project,
                                           Role role) = 0;
  virtual Result<std::vector<TokenInfo>> listTokens() = 0;
  virtual Status revokeToken(int64_t id) = 0;
  // The live token with this secret, or nullopt.
  virtual Result<std::optional<TokenInfo>>
  findToken(const std::string &secret) = 0;
  virtual Result<bool> hasLiveTokens() = 0;

  // Retention: keeps the newest `keep_runs` runs of each project and branch,
  // and drops races no remaining run has seen.
  virtual Result<PruneResult> prune(uint32_t keep_runs) = 0;
};

} // namespace gpurace

#endif
