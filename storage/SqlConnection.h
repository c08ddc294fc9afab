//===- SqlConnection.h - one database connection, any backend ---*- C++ -*-===//
//
// The storage code speaks SQL through this interface only, so that the same
// queries, migrations and transactions run on SQLite (SqliteConnection) and
// on PostgreSQL (PostgresConnection). Statements use '?' placeholders and
// are prepared once per connection; SQL text never carries a value.
// Failures throw StatusError, which the store's public functions turn into
// a Status, so a failed statement rolls back the transaction around it.
//
// Where the two dialects differ, the difference is spelled by the
// connection (Dialect) rather than by the queries.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_STORAGE_SQLCONNECTION_H
#define GPURACE_STORAGE_SQLCONNECTION_H

#include "storage/Status.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpurace::sql {

struct StatusError : std::runtime_error {
  explicit StatusError(Status s)
      : std::runtime_error(s.message), status(std::move(s)) {}
  Status status;
};

enum class Dialect { kSqlite, kPostgres };

// A statement prepared by a connection and cached there. Columns and
// parameters are 0- and 1-based, as in SQLite.
class PreparedStatement {
public:
  virtual ~PreparedStatement() = default;
  virtual void bindInteger(int index, int64_t value) = 0;
  virtual void bindReal(int index, double value) = 0;
  virtual void bindText(int index, const std::string &value) = 0;
  virtual void bindBlob(int index, const std::string &bytes) = 0;
  virtual void bindNull(int index) = 0;
  // Runs the statement on the first call; true while a row is available.
  virtual bool step() = 0;
  virtual int64_t integer(int column) const = 0;
  virtual double real(int column) const = 0;
  virtual std::string text(int column) const = 0;
  virtual std::string blob(int column) const = 0;
  virtual bool isNull(int column) const = 0;
  // Forgets bindings and results so that the cached statement is reusable.
  virtual void reset() = 0;
  // Runs a statement without result rows, here at once.
  virtual void runDeferred() {
    while (step()) {
    }
  }
};

// A use of a cached statement, reset when it goes away. A connection keeps
// one statement per SQL text: a Statement must be done with before the
// same text is prepared again on that connection.
class Statement {
public:
  explicit Statement(PreparedStatement &prepared) : prepared_(&prepared) {}
  Statement(Statement &&other) noexcept : prepared_(other.prepared_) {
    other.prepared_ = nullptr;
  }
  Statement(const Statement &) = delete;
  ~Statement() {
    if (prepared_)
      prepared_->reset();
  }

  // Binds by 1-based index; returns *this so binds chain.
  Statement &bind(int index, int64_t value) {
    prepared_->bindInteger(index, value);
    return *this;
  }
  Statement &bind(int index, const std::string &value) {
    prepared_->bindText(index, value);
    return *this;
  }
  Statement &bind(int index, double value) {
    prepared_->bindReal(index, value);
    return *this;
  }
  Statement &bindBlob(int index, const std::string &bytes) {
    prepared_->bindBlob(index, bytes);
    return *this;
  }
  Statement &bindNull(int index) {
    prepared_->bindNull(index);
    return *this;
  }

  bool step() { return prepared_->step(); }
  // Steps to completion, for statements without result rows.
  void run() {
    while (step()) {
    }
  }
  // Runs a write without result rows, possibly later: inside a
  // transaction PostgreSQL pipelines it with the writes after it (no round
  // trip each), and its error, if any, surfaces at the next statement that
  // is not deferred or at the commit, which then fails. changes() does not
  // count it.
  void runDeferred() { prepared_->runDeferred(); }

  int64_t integer(int column) const { return prepared_->integer(column); }
  double real(int column) const { return prepared_->real(column); }
  std::string text(int column) const { return prepared_->text(column); }
  std::string blob(int column) const { return prepared_->blob(column); }
  bool isNull(int column) const { return prepared_->isNull(column); }

private:
  PreparedStatement *prepared_;
};

// Rows for Connection::insertRows: each row's values in the order of the
// columns, added one after the other.
class Rows {
public:
  struct Value {
    enum class Kind { kInteger, kText, kBlob } kind = Kind::kInteger;
    int64_t integer = 0;
    std::string bytes;
  };

  explicit Rows(size_t columns) : columns_(columns) {}
  Rows &integer(int64_t value) {
    values_.push_back({Value::Kind::kInteger, value, std::string()});
    return *this;
  }
  Rows &text(std::string value) {
    values_.push_back({Value::Kind::kText, 0, std::move(value)});
    return *this;
  }
  Rows &blob(std::string bytes) {
    values_.push_back({Value::Kind::kBlob, 0, std::move(bytes)});
    return *this;
  }

  size_t columns() const { return columns_; }
  size_t size() const { return values_.size() / columns_; }
  const Value &at(size_t row, size_t column) const {
    return values_[row * columns_ + column];
  }

private:
  size_t columns_;
  std::vector<Value> values_;
};

class Connection {
public:
  virtual ~Connection() = default;

  virtual Dialect dialect() const = 0;
  virtual Statement prepare(const std::string &sql) = 0;
  // Runs SQL without parameters or results (DDL, several statements).
  virtual void exec(const std::string &sql) = 0;
  // Rows changed by the last INSERT, UPDATE or DELETE.
  virtual int changes() const = 0;

  // Inserts `rows` into `table`'s `columns`, with no result and no
  // conflict clause: a row that breaks a constraint fails the statement,
  // and its transaction. A write like Statement::runDeferred (its error
  // may surface later). Here multi-row INSERTs; PostgreSQL streams the
  // rows with COPY instead, which it neither parses nor plans per row.
  virtual void insertRows(const std::string &table,
                          const std::vector<std::string> &columns,
                          const Rows &rows);

  // The schema version the migrations have brought the database to.
  virtual int schemaVersion() = 0;
  virtual void setSchemaVersion(int version) = 0;

  // A write transaction excludes every other writer of the database, in
  // this process or another, until it commits or rolls back: ingest reads
  // then writes (find the race, insert it), and must not interleave.
  virtual void beginWrite() = 0;
  virtual void commit() = 0;
  virtual void rollback() noexcept = 0;

  // `haystack` contains `needle` (both SQL expressions), as plain text.
  std::string containsText(const std::string &haystack,
                           const std::string &needle) const;
};

// beginWrite ... commit, rolled back unless commit() was called: a failed
// request leaves the database as it was.
class Transaction {
public:
  explicit Transaction(Connection &db) : db_(db) { db_.beginWrite(); }
  Transaction(const Transaction &) = delete;
  ~Transaction() {
    if (!done_)
      db_.rollback();
  }
  void commit() {
    db_.commit();
    done_ = true;
  }

private:
  Connection &db_;
  bool done_ = false;
};

} // namespace gpurace::sql

#endif
