//===- SeededStore.h - a small race database for every input ---*- C++ -*-===//
//
// The service fuzz targets run every input against the same database: two
// analysis runs and a runtime report of project "demo" on branch "main"
// (races 1 to 4, run-1 to run-3, a review of race 1). It is built once; an
// input that may have written to it leaves it to be replaced by a fresh
// copy, so that no input sees what an earlier one stored and a reproducer
// replays alone, while inputs that only read share one open copy.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_FUZZ_SEEDEDSTORE_H
#define GPURACE_FUZZ_SEEDEDSTORE_H

#include "storage/RaceStore.h"

#include <memory>
#include <string>

namespace gpurace::fuzz {

class SeededStore final : public RaceStore {
public:
  // Aborts when no copy can be opened: the target cannot run at all then.
  SeededStore();

  // Back to the seeded state, before the next input.
  void reset();

  Result<v1::UploadAnalysisResponse>
  uploadAnalysis(const v1::UploadAnalysisRequest &request) override;
  Result<RuntimeIngestResult>
  reportRuntime(const v1::ReportRuntimeRequest &request) override;
  Result<v1::ListProjectsResponse> listProjects() override;
  Result<v1::Summary> getSummary(const v1::GetSummaryRequest &request) override;
  Result<v1::ListRacesResponse>
  listRaces(const v1::ListRacesRequest &request) override;
  Result<v1::Race> getRace(const v1::GetRaceRequest &request) override;
  Result<v1::GetRaceHistoryResponse>
  getRaceHistory(const v1::GetRaceHistoryRequest &request) override;
  Result<v1::ListRunsResponse>
  listRuns(const v1::ListRunsRequest &request) override;
  Result<v1::RunDetail> getRun(const v1::GetRunRequest &request) override;
  Result<v1::GetTrendResponse>
  getTrend(const v1::GetTrendRequest &request) override;
  Result<v1::Race> setReview(const v1::SetReviewRequest &request) override;
  Result<CreatedToken> createToken(const std::string &name,
                                   const std::string &project,
                                   Role role) override;
  Result<std::vector<TokenInfo>> listTokens() override;
  Status revokeToken(int64_t id) override;
  Result<std::optional<TokenInfo>>
  findToken(const std::string &secret) override;
  Result<bool> hasLiveTokens() override;
  Result<PruneResult> prune(uint32_t keep_runs) override;

private:
  RaceStore &reading() { return *store_; }
  RaceStore &writing() {
    written_ = true;
    return *store_;
  }

  std::unique_ptr<RaceStore> store_;
  bool written_ = false;
};

// A private folder, removed at exit, that holds the database; targets may
// keep files of their own there.
const std::string &scratchDirectory();

} // namespace gpurace::fuzz

#endif
