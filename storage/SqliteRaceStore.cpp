#include "storage/SqliteRaceStore.h"

#include "storage/Ingest.h"
#include "storage/Migrations.h"
#include "storage/RaceRows.h"
#include "storage/Retention.h"
#include "storage/Tokens.h"
#include "storage/Triage.h"
#include "storage/Validation.h"

#include <sqlite3.h>

namespace gpurace {

using sqlite::Database;
using sqlite::StatusError;
using sqlite::Transaction;

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

SqliteRaceStore::SqliteRaceStore(const std::string &path,
                                 const SqliteStoreOptions &options)
    : options_(options), writer_(std::make_unique<Database>(path)) {
  if (options.migrate)
    storage::migrate(*writer_);
  else if (writer_->userVersion() != storage::latestSchemaVersion())
    throw StatusError({StatusCode::kFailedPrecondition,
                       "database '" + path + "' is at schema version " +
                           std::to_string(writer_->userVersion()) +
                           ", this gpurace needs " +
                           std::to_string(storage::latestSchemaVersion()) +
                           ": run 'gpurace db migrate'"});
  reader_ = std::make_unique<Database>(path);
}

Result<std::unique_ptr<SqliteRaceStore>>
SqliteRaceStore::open(const std::string &path,
                      const SqliteStoreOptions &options) {
  try {
    return std::unique_ptr<SqliteRaceStore>(new SqliteRaceStore(path, options));
  } catch (const StatusError &e) {
    return e.status;
  }
}

// Every public function runs under one connection's lock and turns a thrown
// StatusError into its Result; a transaction still open then rolls back.
template <typename F>
auto SqliteRaceStore::write(F &&f) -> Result<decltype(f())> {
  std::lock_guard<std::mutex> lock(writer_mutex_);
  try {
    return f();
  } catch (const StatusError &e) {
    return e.status;
  }
}

template <typename F>
auto SqliteRaceStore::read(F &&f) -> Result<decltype(f())> {
  std::lock_guard<std::mutex> lock(reader_mutex_);
  try {
    return f();
  } catch (const StatusError &e) {
    return e.status;
  }
}

Result<v1::UploadAnalysisResponse>
SqliteRaceStore::uploadAnalysis(const v1::UploadAnalysisRequest &request) {
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
SqliteRaceStore::reportRuntime(const v1::ReportRuntimeRequest &request) {
  if (Status s = storage::validateRuntimeReport(request); !s.ok())
    return s;
  return write([&] {
    Transaction transaction(*writer_);
    auto result =
        storage::storeRuntimeReport(*writer_, request, storage::nowMicros());
    transaction.commit();
    return result;
  });
}

Result<v1::ListProjectsResponse> SqliteRaceStore::listProjects() {
  return read([&] { return storage::listProjects(*reader_); });
}

Result<v1::Summary>
SqliteRaceStore::getSummary(const v1::GetSummaryRequest &request) {
  return read([&] { return storage::getSummary(*reader_, request); });
}

Result<v1::ListRacesResponse>
SqliteRaceStore::listRaces(const v1::ListRacesRequest &request) {
  return read([&] {
    return storage::listRaces(*reader_, request, options_.page_limits);
  });
}

Result<v1::Race> SqliteRaceStore::getRace(const v1::GetRaceRequest &request) {
  return read([&] { return storage::getRace(*reader_, request); });
}

Result<v1::GetRaceHistoryResponse>
SqliteRaceStore::getRaceHistory(const v1::GetRaceHistoryRequest &request) {
  return read([&] { return storage::getRaceHistory(*reader_, request); });
}

Result<v1::ListRunsResponse>
SqliteRaceStore::listRuns(const v1::ListRunsRequest &request) {
  return read([&] {
    return storage::listRuns(*reader_, request, options_.page_limits);
  });
}

Result<v1::RunDetail> SqliteRaceStore::getRun(const v1::GetRunRequest &request) {
  return read([&] { return storage::getRun(*reader_, request); });
}

Result<v1::GetTrendResponse>
SqliteRaceStore::getTrend(const v1::GetTrendRequest &request) {
  return read([&] { return storage::getTrend(*reader_, request); });
}

Result<v1::Race> SqliteRaceStore::setReview(const v1::SetReviewRequest &request) {
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

Result<CreatedToken> SqliteRaceStore::createToken(const std::string &name,
                                                  const std::string &project,
                                                  Role role) {
  return write([&] {
    return storage::createToken(*writer_, name, project, role,
                                storage::nowMicros());
  });
}

Result<std::vector<TokenInfo>> SqliteRaceStore::listTokens() {
  return read([&] { return storage::listTokens(*reader_); });
}

Status SqliteRaceStore::revokeToken(int64_t id) {
  auto result = write([&] {
    storage::revokeToken(*writer_, id, storage::nowMicros());
    return true;
  });
  return result.status();
}

Result<std::optional<TokenInfo>>
SqliteRaceStore::findToken(const std::string &secret) {
  return read([&] { return storage::findToken(*reader_, secret); });
}

Result<bool> SqliteRaceStore::hasLiveTokens() {
  return read([&] { return storage::hasLiveTokens(*reader_); });
}

Result<PruneResult> SqliteRaceStore::prune(uint32_t keep_runs) {
  if (keep_runs == 0)
    return Status::invalid("keep_runs: must be at least 1");
  return write([&] {
    Transaction transaction(*writer_);
    PruneResult result = storage::prune(*writer_, keep_runs);
    transaction.commit();
    return result;
  });
}

Status SqliteRaceStore::backup(const std::string &destination) {
  auto result = write([&] {
    Database target(destination);
    sqlite3_backup *b =
        sqlite3_backup_init(target.handle(), "main", writer_->handle(), "main");
    if (!b)
      target.fail("backup to '" + destination + "'");
    sqlite3_backup_step(b, -1);
    if (sqlite3_backup_finish(b) != SQLITE_OK)
      target.fail("backup to '" + destination + "'");
    return true;
  });
  return result.status();
}

Result<int> SqliteRaceStore::schemaVersion() {
  return read([&] { return reader_->userVersion(); });
}

} // namespace gpurace
