//===- SqliteConnection.h - a Connection to one SQLite file -----*- C++ -*-===//
//
// A thin RAII layer over the SQLite C API: WAL, foreign keys and a busy
// timeout on every connection, statements prepared once and cached.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_STORAGE_SQLITECONNECTION_H
#define GPURACE_STORAGE_SQLITECONNECTION_H

#include "storage/SqlConnection.h"

#include <map>
#include <memory>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace gpurace::sql {

class SqliteConnection final : public Connection {
public:
  // Opens (creating if needed) the file.
  explicit SqliteConnection(const std::string &path);
  SqliteConnection(const SqliteConnection &) = delete;
  ~SqliteConnection() override;

  Dialect dialect() const override { return Dialect::kSqlite; }
  Statement prepare(const std::string &sql) override;
  void exec(const std::string &sql) override;
  int changes() const override;
  int schemaVersion() override;
  void setSchemaVersion(int version) override;
  void beginWrite() override;
  void commit() override;
  void rollback() noexcept override;

  sqlite3 *handle() { return db_; }
  [[noreturn]] void fail(const std::string &what) const;

private:
  class Prepared;

  sqlite3 *db_ = nullptr;
  std::map<std::string, std::unique_ptr<Prepared>> cache_;
};

} // namespace gpurace::sql

#endif
