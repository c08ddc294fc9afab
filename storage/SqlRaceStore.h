//===- SqlRaceStore.h - RaceStore on SQLite or PostgreSQL -------*- C++ -*-===//
//
// One writer connection and one reader connection, to a SQLite file or to a
// PostgreSQL database (a postgresql:// URI): queries run beside an ingest
// instead of waiting for it. Each connection is used by one thread at a
// time. On PostgreSQL several servers may share the database: their write
// transactions exclude each other (see PostgresConnection), so an upload's
// id is checked and recorded atomically whichever server receives it.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_STORAGE_SQLRACESTORE_H
#define GPURACE_STORAGE_SQLRACESTORE_H

#include "storage/Queries.h"
#include "storage/RaceStore.h"
#include "storage/SqlConnection.h"

#include <deque>
#include <memory>
#include <mutex>
#include <optional>

namespace gpurace {

struct StoreOptions {
  storage::PageLimits page_limits;
  // Run the migrations the file lacks; off, an outdated file is refused.
  bool migrate = true;
};

class SqlRaceStore final : public RaceStore {
public:
  // `db`: a SQLite file (created if absent) or a postgresql:// URI.
  static Result<std::unique_ptr<SqlRaceStore>>
  open(const std::string &db, const StoreOptions &options = {});

  Result<v1::UploadAnalysisResponse>
  uploadAnalysis(const v1::UploadAnalysisRequest &request) override;
  Result<RuntimeIngestResult>
  reportRuntime(const v1::ReportRuntimeRequest &request) override;
  Result<std::vector<RuntimeIngestResult>> reportRuntimeBatch(
      const std::vector<v1::ReportRuntimeRequest> &requests) override;
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

  // Copies the live database to `destination` while the server keeps
  // serving: SQLite's online backup API, or pg_dump's custom format.
  Status backup(const std::string &destination);
  Result<int> schemaVersion();
  sql::Dialect dialect() const { return writer_->dialect(); }

private:
  SqlRaceStore(const std::string &db, const StoreOptions &options);

  template <typename F> auto write(F &&f) -> Result<decltype(f())>;
  template <typename F> auto read(F &&f) -> Result<decltype(f())>;

  // A batch of runtime reports waiting for the writer, and its outcome
  // once written.
  struct PendingReports {
    const std::vector<v1::ReportRuntimeRequest> *requests = nullptr;
    std::optional<Result<std::vector<RuntimeIngestResult>>> outcome;
  };
  // Writes the batches waiting at the head of pending_ (the writer lock
  // held), in one transaction, and sets their outcomes.
  void writePendingReports();
  Result<std::vector<RuntimeIngestResult>>
  storeReports(const std::vector<const v1::ReportRuntimeRequest *> &requests);

  std::string db_;
  StoreOptions options_;
  std::mutex writer_mutex_;
  std::unique_ptr<sql::Connection> writer_;
  // Runtime batches that wait for writer_mutex_ are written together by
  // whichever of their callers gets it first: one transaction, one commit
  // (one flush to disk) for all of them.
  std::mutex pending_mutex_;
  std::deque<PendingReports *> pending_;
  std::mutex reader_mutex_;
  std::unique_ptr<sql::Connection> reader_;
};

} // namespace gpurace

#endif
