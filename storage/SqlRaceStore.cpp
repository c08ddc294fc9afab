#include "storage/SqlRaceStore.h"

#include "storage/Connect.h"
#include "storage/DatabaseBackup.h"
#include "storage/Ingest.h"
#include "storage/Migrations.h"
#include "storage/PostgresConnection.h"
#include "storage/RaceRows.h"
#include "storage/Retention.h"
#include "storage/Tokens.h"
#include "storage/Triage.h"
#include "storage/Validation.h"

namespace gpurace {

using sql::StatusError;
using sql::Transaction;

const char *roleName(Role role) {
  switch (role) {
  case Role::kRead:
    return "read";
  case Role::kStore:
    return "store";
  case Role::kAdmin:
    return "admin";
  }
  return "unknown";
}

std::optional<Role> parseRole(const std::string &name) {
  for (Role r : {Role::kRead, Role::kStore, Role::kAdmin})
    if (name == roleName(r))
      return r;
  return std::nullopt;
}

SqlRaceStore::SqlRaceStore(const std::string &db, const StoreOptions &options)
    : db_(db), options_(options), writer_(sql::connect(db)) {
  if (options.migrate) {
    storage::migrate(*writer_);
  } else if (int version = writer_->schemaVersion();
             version != storage::latestSchemaVersion()) {
    throw StatusError({StatusCode::kFailedPrecondition,
                       "database '" + sql::redactedUrl(db) +
                           "' is at schema version " + std::to_string(version) +
                           ", this gpurace needs " +
                           std::to_string(storage::latestSchemaVersion()) +
                           ": run 'gpurace db migrate'"});
  }
  reader_ = sql::connect(db);
}

Result<std::unique_ptr<SqlRaceStore>>
SqlRaceStore::open(const std::string &db, const StoreOptions &options) {
  try {
    return std::unique_ptr<SqlRaceStore>(new SqlRaceStore(db, options));
  } catch (const StatusError &e) {
    return e.status;
  }
}

// Every public function runs under one connection's lock and turns a thrown
// StatusError into its Result; a transaction still open then rolls back.
template <typename F>
auto SqlRaceStore::write(F &&f) -> Result<decltype(f())> {
  std::lock_guard<std::mutex> lock(writer_mutex_);
  try {
    return f();
  } catch (const StatusError &e) {
    return e.status;
  }
}

template <typename F>
auto SqlRaceStore::read(F &&f) -> Result<decltype(f())> {
  std::lock_guard<std::mutex> lock(reader_mutex_);
  try {
    return f();
  } catch (const StatusError &e) {
    return e.status;
  }
}

Result<v1::UploadAnalysisResponse>
SqlRaceStore::uploadAnalysis(const v1::UploadAnalysisRequest &request) {
  if (Status s = storage::validateUpload(request); !s.ok())
    return s;
  return write([&] {
    Transaction transaction(*writer_);
    auto response =
        storage::storeAnalysis(*writer_, request, storage::nowMicros());
    transaction.commit();
    return response;
  });
}

Result<RuntimeIngestResult>
SqlRaceStore::reportRuntime(const v1::ReportRuntimeRequest &request) {
  auto results = reportRuntimeBatch({request});
  if (!results.ok())
    return results.status();
  return results->front();
}

// Batches of reports that arrive while the writer is busy are written
// together when it is free, in one transaction: a commit waits for its
// flush to disk, and the reports of many agents then share one. The
// outcome is the one the batches would have had one after the other, in
// the order they arrived. Should the shared transaction fail, each batch
// is written again alone, so that a batch that fails takes none of the
// others with it.
Result<std::vector<RuntimeIngestResult>> SqlRaceStore::reportRuntimeBatch(
    const std::vector<v1::ReportRuntimeRequest> &requests) {
  for (const v1::ReportRuntimeRequest &request : requests)
    if (Status s = storage::validateRuntimeReport(request); !s.ok())
      return s;
  PendingReports mine;
  mine.requests = &requests;
  {
    std::lock_guard<std::mutex> lock(pending_mutex_);
    pending_.push_back(&mine);
  }
  std::lock_guard<std::mutex> lock(writer_mutex_);
  while (true) {
    {
      std::lock_guard<std::mutex> pending(pending_mutex_);
      if (mine.outcome)
        return std::move(*mine.outcome);
    }
    writePendingReports();
  }
}

namespace {

// The most reports one shared transaction writes; the batches after them
// wait for the next.
constexpr size_t kReportsPerTransaction = 1024;

} // namespace

void SqlRaceStore::writePendingReports() {
  std::vector<PendingReports *> group;
  std::vector<const v1::ReportRuntimeRequest *> all;
  {
    std::lock_guard<std::mutex> lock(pending_mutex_);
    while (!pending_.empty() &&
           (group.empty() || all.size() + pending_.front()->requests->size() <=
                                 kReportsPerTransaction)) {
      group.push_back(pending_.front());
      pending_.pop_front();
      for (const v1::ReportRuntimeRequest &r : *group.back()->requests)
        all.push_back(&r);
    }
  }
  auto together = storeReports(all);
  std::vector<Result<std::vector<RuntimeIngestResult>>> outcomes;
  if (together.ok()) {
    auto next = together->begin();
    for (PendingReports *p : group) {
      auto end = next + static_cast<std::ptrdiff_t>(p->requests->size());
      outcomes.emplace_back(std::vector<RuntimeIngestResult>(
          std::make_move_iterator(next), std::make_move_iterator(end)));
      next = end;
    }
  } else if (group.size() == 1) {
    outcomes.push_back(together.status());
  } else {
    for (PendingReports *p : group) {
      std::vector<const v1::ReportRuntimeRequest *> alone;
      for (const v1::ReportRuntimeRequest &r : *p->requests)
        alone.push_back(&r);
      outcomes.push_back(storeReports(alone));
    }
  }
  std::lock_guard<std::mutex> lock(pending_mutex_);
  for (size_t i = 0; i < group.size(); ++i)
    group[i]->outcome = std::move(outcomes[i]);
}

Result<std::vector<RuntimeIngestResult>> SqlRaceStore::storeReports(
    const std::vector<const v1::ReportRuntimeRequest *> &requests) {
  try {
    Transaction transaction(*writer_);
    auto results =
        storage::storeRuntimeReports(*writer_, requests, storage::nowMicros());
    transaction.commit();
    return results;
  } catch (const StatusError &e) {
    return e.status;
  } catch (const std::exception &e) {
    // Every batch of the group is answered, whatever went wrong.
    return Status::internal(std::string("storing runtime reports: ") +
                            e.what());
  }
}

Result<v1::ListProjectsResponse> SqlRaceStore::listProjects() {
  return read([&] { return storage::listProjects(*reader_); });
}

Result<v1::Summary>
SqlRaceStore::getSummary(const v1::GetSummaryRequest &request) {
  return read([&] { return storage::getSummary(*reader_, request); });
}

Result<v1::ListRacesResponse>
SqlRaceStore::listRaces(const v1::ListRacesRequest &request) {
  return read([&] {
    return storage::listRaces(*reader_, request, options_.page_limits);
  });
}

Result<v1::Race> SqlRaceStore::getRace(const v1::GetRaceRequest &request) {
  return read([&] { return storage::getRace(*reader_, request); });
}

Result<v1::GetRaceHistoryResponse>
SqlRaceStore::getRaceHistory(const v1::GetRaceHistoryRequest &request) {
  return read([&] { return storage::getRaceHistory(*reader_, request); });
}

Result<v1::ListRunsResponse>
SqlRaceStore::listRuns(const v1::ListRunsRequest &request) {
  return read([&] {
    return storage::listRuns(*reader_, request, options_.page_limits);
  });
}

Result<v1::RunDetail> SqlRaceStore::getRun(const v1::GetRunRequest &request) {
  return read([&] { return storage::getRun(*reader_, request); });
}

Result<v1::GetTrendResponse>
SqlRaceStore::getTrend(const v1::GetTrendRequest &request) {
  return read([&] { return storage::getTrend(*reader_, request); });
}

Result<v1::Race> SqlRaceStore::setReview(const v1::SetReviewRequest &request) {
  return write([&] {
    Transaction transaction(*writer_);
    storage::setReview(*writer_, request, storage::nowMicros());
    v1::GetRaceRequest which;
    which.set_id(request.race_id());
    v1::Race race = storage::getRace(*writer_, which);
    transaction.commit();
    return race;
  });
}

Result<CreatedToken> SqlRaceStore::createToken(const std::string &name,
                                                  const std::string &project,
                                                  Role role) {
  return write([&] {
    return storage::createToken(*writer_, name, project, role,
                                storage::nowMicros());
  });
}

Result<std::vector<TokenInfo>> SqlRaceStore::listTokens() {
  return read([&] { return storage::listTokens(*reader_); });
}

Status SqlRaceStore::revokeToken(int64_t id) {
  auto result = write([&] {
    storage::revokeToken(*writer_, id, storage::nowMicros());
    return true;
  });
  return result.status();
}

Result<std::optional<TokenInfo>>
SqlRaceStore::findToken(const std::string &secret) {
  return read([&] { return storage::findToken(*reader_, secret); });
}

Result<bool> SqlRaceStore::hasLiveTokens() {
  return read([&] { return storage::hasLiveTokens(*reader_); });
}

Result<PruneResult> SqlRaceStore::prune(uint32_t keep_runs) {
  if (keep_runs == 0)
    return Status::invalid("keep_runs: must be at least 1");
  return write([&] {
    Transaction transaction(*writer_);
    PruneResult result = storage::prune(*writer_, keep_runs);
    transaction.commit();
    return result;
  });
}

Status SqlRaceStore::backup(const std::string &destination) {
  if (sql::isPostgresUrl(db_))
    return storage::backupPostgres(db_, destination);
  auto result = write([&] {
    storage::backupSqlite(static_cast<sql::SqliteConnection &>(*writer_),
                          destination);
    return true;
  });
  return result.status();
}

Result<int> SqlRaceStore::schemaVersion() {
  return read([&] { return reader_->schemaVersion(); });
}

} // namespace gpurace
