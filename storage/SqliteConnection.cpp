#include "storage/SqliteConnection.h"

#include <sqlite3.h>

namespace gpurace::sql {

class SqliteConnection::Prepared final : public PreparedStatement {
public:
  Prepared(SqliteConnection &db, sqlite3_stmt *stmt) : db_(db), stmt_(stmt) {}
  ~Prepared() override { sqlite3_finalize(stmt_); }

  void bindInteger(int index, int64_t value) override {
    check(sqlite3_bind_int64(stmt_, index, value));
  }
  void bindReal(int index, double value) override {
    check(sqlite3_bind_double(stmt_, index, value));
  }
  void bindText(int index, const std::string &value) override {
    check(sqlite3_bind_text(stmt_, index, value.data(),
                            static_cast<int>(value.size()), SQLITE_TRANSIENT));
  }
  void bindBlob(int index, const std::string &bytes) override {
    check(sqlite3_bind_blob(stmt_, index, bytes.data(),
                            static_cast<int>(bytes.size()), SQLITE_TRANSIENT));
  }
  void bindNull(int index) override { check(sqlite3_bind_null(stmt_, index)); }

  bool step() override {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW)
      return true;
    if (rc == SQLITE_DONE)
      return false;
    db_.fail("step");
  }

  int64_t integer(int column) const override {
    return sqlite3_column_int64(stmt_, column);
  }
  double real(int column) const override {
    return sqlite3_column_double(stmt_, column);
  }
  std::string text(int column) const override {
    const unsigned char *p = sqlite3_column_text(stmt_, column);
    int n = sqlite3_column_bytes(stmt_, column);
    return p ? std::string(reinterpret_cast<const char *>(p), n)
             : std::string();
  }
  std::string blob(int column) const override {
    const void *p = sqlite3_column_blob(stmt_, column);
    int n = sqlite3_column_bytes(stmt_, column);
    return p ? std::string(static_cast<const char *>(p), n) : std::string();
  }
  bool isNull(int column) const override {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
  }

  void reset() override {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }

private:
  void check(int rc) {
    if (rc != SQLITE_OK)
      db_.fail("bind");
  }

  SqliteConnection &db_;
  sqlite3_stmt *stmt_;
};

SqliteConnection::SqliteConnection(const std::string &path) {
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

SqliteConnection::~SqliteConnection() {
  cache_.clear();
  sqlite3_close(db_);
}

Statement SqliteConnection::prepare(const std::string &sql) {
  auto found = cache_.find(sql);
  if (found != cache_.end())
    return Statement(*found->second);
  sqlite3_stmt *stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
    fail("prepare '" + sql + "'");
  auto &prepared = cache_[sql];
  prepared = std::make_unique<Prepared>(*this, stmt);
  return Statement(*prepared);
}

void SqliteConnection::exec(const std::string &sql) {
  char *error = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = error ? error : "unknown error";
    sqlite3_free(error);
    throw StatusError(Status::internal("sqlite: " + message));
  }
}

int SqliteConnection::changes() const { return sqlite3_changes(db_); }

int SqliteConnection::schemaVersion() {
  Statement s = prepare("PRAGMA user_version");
  s.step();
  return static_cast<int>(s.integer(0));
}

void SqliteConnection::setSchemaVersion(int version) {
  // PRAGMA takes no bound parameters; the value is an integer we chose.
  exec("PRAGMA user_version = " + std::to_string(version));
}

// IMMEDIATE takes the file's write lock at once: two writers never both
// read before either writes.
void SqliteConnection::beginWrite() { exec("BEGIN IMMEDIATE"); }

void SqliteConnection::commit() { exec("COMMIT"); }

void SqliteConnection::rollback() noexcept {
  sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

void SqliteConnection::fail(const std::string &what) const {
  throw StatusError(
      Status::internal("sqlite " + what + ": " + sqlite3_errmsg(db_)));
}

} // namespace gpurace::sql
