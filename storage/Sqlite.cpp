#include "storage/Sqlite.h"

#include <sqlite3.h>

namespace gpurace::sqlite {

Statement::Statement(Database &db, sqlite3_stmt *stmt) : db_(&db), stmt_(stmt) {}

Statement::Statement(Statement &&other) noexcept
    : db_(other.db_), stmt_(other.stmt_) {
  other.stmt_ = nullptr;
}

Statement::~Statement() {
  if (!stmt_)
    return;
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

Statement &Statement::bind(int index, int64_t value) {
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK)
    db_->fail("bind");
  return *this;
}

Statement &Statement::bind(int index, const std::string &value) {
  if (sqlite3_bind_text(stmt_, index, value.data(),
                        static_cast<int>(value.size()),
                        SQLITE_TRANSIENT) != SQLITE_OK)
    db_->fail("bind");
  return *this;
}

Statement &Statement::bindBlob(int index, const std::string &bytes) {
  if (sqlite3_bind_blob(stmt_, index, bytes.data(),
                        static_cast<int>(bytes.size()),
                        SQLITE_TRANSIENT) != SQLITE_OK)
    db_->fail("bind");
  return *this;
}

Statement &Statement::bindNull(int index) {
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK)
    db_->fail("bind");
  return *this;
}

Statement &Statement::bind(int index, double value) {
  if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK)
    db_->fail("bind");
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW)
    return true;
  if (rc == SQLITE_DONE)
    return false;
  db_->fail("step");
}

void Statement::run() {
  while (step()) {
  }
}

int64_t Statement::integer(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

double Statement::real(int column) const {
  return sqlite3_column_double(stmt_, column);
}

std::string Statement::text(int column) const {
  const unsigned char *p = sqlite3_column_text(stmt_, column);
  int n = sqlite3_column_bytes(stmt_, column);
  return p ? std::string(reinterpret_cast<const char *>(p), n) : std::string();
}

std::string Statement::blob(int column) const {
  const void *p = sqlite3_column_blob(stmt_, column);
  int n = sqlite3_column_bytes(stmt_, column);
  return p ? std::string(static_cast<const char *>(p), n) : std::string();
}

bool Statement::isNull(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

Database::Database(const std::string &path) {
  int rc = sqlite3_open_v2(path.c_str(), &db_,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                               SQLITE_OPEN_NOMUTEX,
                           nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw StatusError(Status::internal("cannot open database '" + path +
                                       "': " + message));
  }
  // Concurrent readers wait for a writer instead of failing at once.
  sqlite3_busy_timeout(db_, 5000);
  exec("PRAGMA foreign_keys = ON");
  exec("PRAGMA journal_mode = WAL");
  // In WAL mode NORMAL keeps every committed transaction across a process
  // crash; only a power loss can drop the last ones.
  exec("PRAGMA synchronous = NORMAL");
  // The race table of a large database is read whole by sorted list
  // queries: keep it in memory instead of SQLite's 2 MiB default.
  exec("PRAGMA cache_size = -65536");
  exec("PRAGMA mmap_size = 268435456");
}

Database::~Database() {
  for (auto &entry : cache_)
    sqlite3_finalize(entry.second);
  sqlite3_close(db_);
}

Statement Database::prepare(const std::string &sql) {
  auto found = cache_.find(sql);
  if (found != cache_.end())
    return Statement(*this, found->second);
  sqlite3_stmt *stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
    fail("prepare '" + sql + "'");
  cache_.emplace(sql, stmt);
  return Statement(*this, stmt);
}

void Database::exec(const std::string &sql) {
  char *error = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = error ? error : "unknown error";
    sqlite3_free(error);
    throw StatusError(Status::internal("sqlite: " + message));
  }
}

int64_t Database::lastInsertId() const { return sqlite3_last_insert_rowid(db_); }

int Database::changes() const { return sqlite3_changes(db_); }

int Database::userVersion() {
  Statement s = prepare("PRAGMA user_version");
  s.step();
  return static_cast<int>(s.integer(0));
}

void Database::setUserVersion(int version) {
  // PRAGMA takes no bound parameters; the value is an integer we chose.
  exec("PRAGMA user_version = " + std::to_string(version));
}

void Database::fail(const std::string &what) const {
  throw StatusError(
      Status::internal("sqlite " + what + ": " + sqlite3_errmsg(db_)));
}

Transaction::Transaction(Database &db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
  if (!done_)
    sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  db_.exec("COMMIT");
  done_ = true;
}

} // namespace gpurace::sqlite
