//===- Sqlite.h - a thin RAII layer over the SQLite C API -------*- C++ -*-===//
//
// Every statement is prepared once per connection and bound; SQL text never
// carries a value. Failures throw StatusError, which the store's public
// functions turn into a Status, so a failed statement rolls back the
// transaction around it.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_STORAGE_SQLITE_H
#define GPURACE_STORAGE_SQLITE_H

#include "storage/Status.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace gpurace::sqlite {

struct StatusError : std::runtime_error {
  explicit StatusError(Status s)
      : std::runtime_error(s.message), status(std::move(s)) {}
  Status status;
};

class Database;

// A prepared statement, reset and unbound when the Statement goes away so
// that the cached sqlite3_stmt can be reused.
class Statement {
public:
  Statement(Database &db, sqlite3_stmt *stmt);
  Statement(Statement &&other) noexcept;
  Statement(const Statement &) = delete;
  ~Statement();

  // Binds by 1-based index; returns *this so binds chain.
  Statement &bind(int index, int64_t value);
  Statement &bind(int index, const std::string &value);
  Statement &bindBlob(int index, const std::string &bytes);
  Statement &bindNull(int index);
  Statement &bind(int index, double value);

  // Steps once; true while a row is available.
  bool step();
  // Steps to completion, for statements without result rows.
  void run();

  int64_t integer(int column) const;
  double real(int column) const;
  std::string text(int column) const;
  std::string blob(int column) const;
  bool isNull(int column) const;

private:
  Database *db_;
  sqlite3_stmt *stmt_;
};

class Database {
public:
  // Opens (creating if needed) the file with WAL, foreign keys and a busy
  // timeout.
  explicit Database(const std::string &path);
  Database(const Database &) = delete;
  ~Database();

  Statement prepare(const std::string &sql);
  void exec(const std::string &sql);
  int64_t lastInsertId() const;
  int changes() const;
  int userVersion();
  void setUserVersion(int version);
  sqlite3 *handle() { return db_; }
  [[noreturn]] void fail(const std::string &what) const;

private:
  sqlite3 *db_ = nullptr;
  std::map<std::string, sqlite3_stmt *> cache_;
};

// BEGIN IMMEDIATE ... COMMIT, rolled back unless commit() was called: a
// failed request leaves the file as it was.
class Transaction {
public:
  explicit Transaction(Database &db);
  Transaction(const Transaction &) = delete;
  ~Transaction();
  void commit();

private:
  Database &db_;
  bool done_ = false;
};

} // namespace gpurace::sqlite

#endif
