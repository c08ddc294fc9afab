//===- PostgresConnection.h - a Connection to a PostgreSQL db ---*- C++ -*-===//
//
// libpq under the Connection interface. Statements are translated to
// PostgreSQL's numbered parameters once per connection and run with the
// types of their bindings; parameters travel in binary, results as text.
// A write
// transaction takes a transaction-scoped advisory lock, so that writers in
// every gpurace server on the database run one at a time, as SQLite's
// BEGIN IMMEDIATE makes them. A connection the server dropped is
// re-established before the next statement outside a transaction.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_STORAGE_POSTGRESCONNECTION_H
#define GPURACE_STORAGE_POSTGRESCONNECTION_H

#include "storage/SqlConnection.h"

#include <map>
#include <memory>
#include <string>

struct pg_conn;

namespace gpurace::sql {

// A database setting names PostgreSQL when it is a postgresql:// or
// postgres:// URI.
bool isPostgresUrl(const std::string &db);
// The URI with any password replaced by "***", for messages and logs.
std::string redactedUrl(const std::string &url);

class PostgresConnection final : public Connection {
public:
  explicit PostgresConnection(const std::string &url);
  PostgresConnection(const PostgresConnection &) = delete;
  ~PostgresConnection() override;

  Dialect dialect() const override { return Dialect::kPostgres; }
  Statement prepare(const std::string &sql) override;
  void exec(const std::string &sql) override;
  int changes() const override { return changes_; }
  void insertRows(const std::string &table,
                  const std::vector<std::string> &columns,
                  const Rows &rows) override;
  int schemaVersion() override;
  void setSchemaVersion(int version) override;
  void beginWrite() override;
  void commit() override;
  void rollback() noexcept override;

  pg_conn *handle() { return conn_; }
  // Reconnects when the server dropped the connection; outside a
  // transaction only, since an open one is lost with it.
  void ensureConnected();
  void noteChanges(int changes) { changes_ = changes; }
  [[noreturn]] void fail(const std::string &what) const;

  // Deferred writes (Statement::runDeferred) inside a transaction are sent
  // in libpq's pipeline mode without waiting for their results; any other
  // statement, exec, commit or rollback first finishes the pipeline.
  bool inTransaction() const { return in_transaction_; }
  void startPipeline();
  void finishPipeline();
  [[noreturn]] void failPipeline();

private:
  class Prepared;

  void refreshStatisticsWhileYoung();

  std::string url_;
  pg_conn *conn_ = nullptr;
  bool in_transaction_ = false;
  bool pipelined_ = false;
  int changes_ = 0;
  uint64_t commits_ = 0;
  std::map<std::string, std::unique_ptr<Prepared>> cache_;

};

} // namespace gpurace::sql

#endif
