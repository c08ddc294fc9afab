#include "storage/PostgresConnection.h"

#include <libpq-fe.h>

#include <endian.h>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace gpurace::sql {

namespace {

// Type oids of the parameters we bind (pg_type.h is a server header).
constexpr Oid kInt8Oid = 20;
constexpr Oid kTextOid = 25;
constexpr Oid kFloat8Oid = 701;
constexpr Oid kByteaOid = 17;

// Any constant works: it only has to be the same in every gpurace server.
constexpr const char *kWriterLock = "SELECT pg_advisory_xact_lock(7152918834)";

// '?' placeholders, numbered as PostgreSQL wants them; a '?' inside a
// quoted literal is text.
std::string numberPlaceholders(const std::string &sql, int &count) {
  std::string out;
  bool quoted = false;
  count = 0;
  for (char c : sql) {
    if (c == '\'')
      quoted = !quoted;
    if (c == '?' && !quoted) {
      out += "$" + std::to_string(++count);
      continue;
    }
    out += c;
  }
  return out;
}

std::string bigEndian(uint64_t bits) {
  uint64_t be = htobe64(bits);
  return std::string(reinterpret_cast<const char *>(&be), sizeof be);
}

int hexDigit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

// bytea in text results is "\x" followed by two hex digits per byte.
std::string decodeBytea(const char *text, int length) {
  std::string out;
  if (length < 2 || text[0] != '\\' || text[1] != 'x')
    return std::string(text, length);
  out.reserve((length - 2) / 2);
  for (int i = 2; i + 1 < length; i += 2)
    out += static_cast<char>(hexDigit(text[i]) << 4 | hexDigit(text[i + 1]));
  return out;
}

void ignoreNotice(void *, const char *) {}

std::string trimmed(const char *message) {
  std::string s = message ? message : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
    s.pop_back();
  return s;
}

void appendBigEndian(std::string &out, uint64_t value, int bytes) {
  for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8)
    out += static_cast<char>((value >> shift) & 0xff);
}

// A value in COPY's binary format: its length, then its bytes as the
// column's type receives them (int8 big-endian; text and bytea as they
// are). The columns insertRows fills are BIGINT, TEXT or BYTEA.
void appendCopyValue(std::string &out, const Rows::Value &value) {
  if (value.kind == Rows::Value::Kind::kInteger) {
    appendBigEndian(out, 8, 4);
    appendBigEndian(out, static_cast<uint64_t>(value.integer), 8);
    return;
  }
  appendBigEndian(out, value.bytes.size(), 4);
  out += value.bytes;
}

} // namespace

bool isPostgresUrl(const std::string &db) {
  return db.rfind("postgresql://", 0) == 0 || db.rfind("postgres://", 0) == 0;
}

std::string redactedUrl(const std::string &url) {
  auto scheme = url.find("://");
  if (scheme == std::string::npos)
    return url;
  auto at = url.find('@', scheme + 3);
  auto slash = url.find('/', scheme + 3);
  if (at == std::string::npos || (slash != std::string::npos && slash < at))
    return url;
  auto colon = url.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at)
    return url;
  return url.substr(0, colon + 1) + "***" + url.substr(at);
}

class PostgresConnection::Prepared final : public PreparedStatement {
public:
  Prepared(PostgresConnection &db, const std::string &sql) : db_(db) {
    sql_ = numberPlaceholders(sql, count_);
    params_.resize(count_);
  }
  ~Prepared() override { PQclear(result_); }

  void bindInteger(int index, int64_t value) override {
    set(index, kInt8Oid, bigEndian(static_cast<uint64_t>(value)));
  }
  void bindReal(int index, double value) override {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    set(index, kFloat8Oid, bigEndian(bits));
  }
  void bindText(int index, const std::string &value) override {
    set(index, kTextOid, value);
  }
  void bindBlob(int index, const std::string &bytes) override {
    set(index, kByteaOid, bytes);
  }
  void bindNull(int index) override {
    Param &p = param(index);
    p.bound = true;
    p.null = true;
  }

  bool step() override {
    if (!result_) {
      execute();
      row_ = 0;
    } else {
      ++row_;
    }
    return row_ < PQntuples(result_);
  }

  int64_t integer(int column) const override {
    const char *v = value(column);
    // Booleans (EXISTS, IS NOT NULL) come back as 't' or 'f'.
    if (v[0] == 't' || v[0] == 'f')
      return v[0] == 't';
    return std::strtoll(v, nullptr, 10);
  }
  double real(int column) const override {
    return std::strtod(value(column), nullptr);
  }
  std::string text(int column) const override {
    return std::string(value(column), PQgetlength(result_, row_, column));
  }
  std::string blob(int column) const override {
    if (PQftype(result_, column) != kByteaOid)
      return text(column);
    return decodeBytea(value(column), PQgetlength(result_, row_, column));
  }
  bool isNull(int column) const override {
    return PQgetisnull(result_, row_, column);
  }

  // Sent now, its result read at the pipeline's end (finishPipeline).
  // Outside a transaction there is nothing to pipeline with.
  void runDeferred() override {
    if (!db_.inTransaction()) {
      PreparedStatement::runDeferred();
      return;
    }
    db_.startPipeline();
    Wire wire = wireParams();
    if (!PQsendQueryParams(db_.handle(), sql_.c_str(), count_,
                           wire.types.data(), wire.values.data(),
                           wire.lengths.data(), wire.formats.data(), 0))
      db_.failPipeline();
  }

  void reset() override {
    PQclear(result_);
    result_ = nullptr;
    row_ = 0;
    for (Param &p : params_)
      p = Param{p.type, false, false, std::string()};
  }

private:
  struct Param {
    Oid type = 0;
    bool bound = false;
    bool null = false;
    std::string bytes;
  };

  Param &param(int index) {
    if (index < 1 || index > count_)
      db_.fail("bind: no parameter " + std::to_string(index) + " in '" +
               sql_ + "'");
    return params_[index - 1];
  }

  void set(int index, Oid type, std::string bytes) {
    Param &p = param(index);
    p.type = type;
    p.bound = true;
    p.null = false;
    p.bytes = std::move(bytes);
  }

  // Planned for its values at every execution (an unnamed statement): a
  // plan prepared while the tables were empty (a sequential scan of a
  // table that has since grown) would otherwise stay. Planning these
  // statements costs tens of microseconds.
  void execute() {
    db_.finishPipeline();
    Wire wire = wireParams();
    result_ = PQexecParams(db_.handle(), sql_.c_str(), count_,
                           wire.types.data(), wire.values.data(),
                           wire.lengths.data(), wire.formats.data(), 0);
    ExecStatusType status = PQresultStatus(result_);
    if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
      std::string error = trimmed(PQresultErrorMessage(result_));
      PQclear(result_);
      result_ = nullptr;
      if (PQstatus(db_.handle()) != CONNECTION_OK)
        throw StatusError({StatusCode::kUnavailable,
                           "postgresql connection lost: " + error});
      throw StatusError(Status::internal("postgresql: " + error));
    }
    db_.noteChanges(std::atoi(PQcmdTuples(result_)));
  }

  // The bound parameters as PQexecParams and PQsendQueryParams take them.
  struct Wire {
    std::vector<Oid> types;
    std::vector<const char *> values;
    std::vector<int> lengths, formats;
  };
  Wire wireParams() const {
    Wire wire;
    wire.formats.assign(count_, 1);
    for (int i = 0; i < count_; ++i) {
      const Param &p = params_[i];
      if (!p.bound)
        db_.fail("parameter " + std::to_string(i + 1) + " of '" + sql_ +
                 "' is not bound");
      wire.types.push_back(p.type);
      wire.values.push_back(p.null ? nullptr : p.bytes.data());
      wire.lengths.push_back(static_cast<int>(p.bytes.size()));
    }
    return wire;
  }

  const char *value(int column) const {
    return PQgetvalue(result_, row_, column);
  }

  PostgresConnection &db_;
  std::string sql_;
  int count_ = 0;
  std::vector<Param> params_;
  PGresult *result_ = nullptr;
  int row_ = 0;
};

PostgresConnection::PostgresConnection(const std::string &url) : url_(url) {
  conn_ = PQconnectdb(url.c_str());
  if (PQstatus(conn_) != CONNECTION_OK) {
    std::string error = trimmed(PQerrorMessage(conn_));
    PQfinish(conn_);
    conn_ = nullptr;
    throw StatusError({StatusCode::kUnavailable,
                       "cannot connect to PostgreSQL at " + redactedUrl(url) +
                           ": " + error});
  }
  // libpq prints NOTICEs ("relation already exists, skipping") to stderr.
  PQsetNoticeProcessor(conn_, ignoreNotice, nullptr);
}

PostgresConnection::~PostgresConnection() {
  cache_.clear();
  PQfinish(conn_);
}

void PostgresConnection::ensureConnected() {
  if (in_transaction_ || PQstatus(conn_) == CONNECTION_OK)
    return;
  PQreset(conn_);
  if (PQstatus(conn_) != CONNECTION_OK)
    throw StatusError({StatusCode::kUnavailable,
                       "cannot reconnect to PostgreSQL at " +
                           redactedUrl(url_) + ": " +
                           trimmed(PQerrorMessage(conn_))});

}

Statement PostgresConnection::prepare(const std::string &sql) {
  ensureConnected();
  auto found = cache_.find(sql);
  if (found != cache_.end())
    return Statement(*found->second);
  auto &prepared = cache_[sql];
  prepared = std::make_unique<Prepared>(*this, sql);
  return Statement(*prepared);
}

void PostgresConnection::startPipeline() {
  if (pipelined_)
    return;
  if (!PQenterPipelineMode(conn_))
    failPipeline();
  pipelined_ = true;
}

// Reads the deferred writes' results up to a sync point; the first error
// among them fails the caller's statement (and so its transaction).
void PostgresConnection::finishPipeline() {
  if (!pipelined_)
    return;
  pipelined_ = false;
  if (!PQpipelineSync(conn_))
    failPipeline();
  std::string error;
  while (true) {
    PGresult *r = PQgetResult(conn_);
    if (!r) {
      // NULL ends each statement's results; a lost connection gives only
      // NULLs.
      if (PQstatus(conn_) != CONNECTION_OK)
        failPipeline();
      continue;
    }
    ExecStatusType status = PQresultStatus(r);
    if (status == PGRES_FATAL_ERROR && error.empty())
      error = trimmed(PQresultErrorMessage(r));
    PQclear(r);
    if (status == PGRES_PIPELINE_SYNC)
      break;
  }
  PQexitPipelineMode(conn_);
  if (!error.empty())
    throw StatusError(Status::internal("postgresql: " + error));
}

void PostgresConnection::failPipeline() {
  std::string error = trimmed(PQerrorMessage(conn_));
  if (PQstatus(conn_) != CONNECTION_OK)
    throw StatusError(
        {StatusCode::kUnavailable, "postgresql connection lost: " + error});
  throw StatusError(Status::internal("postgresql pipeline: " + error));
}

void PostgresConnection::exec(const std::string &sql) {
  finishPipeline();
  ensureConnected();
  PGresult *r = PQexec(conn_, sql.c_str());
  ExecStatusType status = PQresultStatus(r);
  std::string error = trimmed(PQresultErrorMessage(r));
  PQclear(r);
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
    return;
  if (PQstatus(conn_) != CONNECTION_OK)
    throw StatusError(
        {StatusCode::kUnavailable, "postgresql connection lost: " + error});
  throw StatusError(Status::internal("postgresql: " + error));
}

// COPY cannot run in a pipeline: the deferred writes before it are
// finished first (one round trip), then the rows go out in one stream, in
// the binary format (no hex for the blobs, nothing to parse).
void PostgresConnection::insertRows(const std::string &table,
                                    const std::vector<std::string> &columns,
                                    const Rows &rows) {
  if (rows.size() == 0)
    return;
  finishPipeline();
  ensureConnected();
  std::string names;
  for (size_t c = 0; c < columns.size(); ++c)
    names += (c ? ", " : "") + columns[c];
  // The binary format's signature, flags and header extension, then each
  // row as its number of values and the values; -1 ends the data.
  std::string data("PGCOPY\n\377\r\n\0", 11);
  appendBigEndian(data, 0, 4);
  appendBigEndian(data, 0, 4);
  for (size_t r = 0; r < rows.size(); ++r) {
    appendBigEndian(data, columns.size(), 2);
    for (size_t c = 0; c < columns.size(); ++c)
      appendCopyValue(data, rows.at(r, c));
  }
  appendBigEndian(data, 0xffff, 2);
  PGresult *start =
      PQexec(conn_, ("COPY " + table + "(" + names + ") FROM STDIN (FORMAT binary)")
                  .c_str());
  ExecStatusType status = PQresultStatus(start);
  std::string error = trimmed(PQresultErrorMessage(start));
  PQclear(start);
  if (status != PGRES_COPY_IN) {
    if (PQstatus(conn_) != CONNECTION_OK)
      throw StatusError(
          {StatusCode::kUnavailable, "postgresql connection lost: " + error});
    throw StatusError(Status::internal("postgresql: " + error));
  }
  if (PQputCopyData(conn_, data.data(), static_cast<int>(data.size())) != 1 ||
      PQputCopyEnd(conn_, nullptr) != 1)
    failPipeline();
  // The COPY's result, then NULL.
  error.clear();
  int copied = 0;
  while (PGresult *r = PQgetResult(conn_)) {
    if (PQresultStatus(r) == PGRES_COMMAND_OK)
      copied = std::atoi(PQcmdTuples(r));
    else if (error.empty())
      error = trimmed(PQresultErrorMessage(r));
    PQclear(r);
  }
  if (!error.empty()) {
    if (PQstatus(conn_) != CONNECTION_OK)
      throw StatusError(
          {StatusCode::kUnavailable, "postgresql connection lost: " + error});
    throw StatusError(Status::internal("postgresql: " + error));
  }
  noteChanges(copied);
}

int PostgresConnection::schemaVersion() {
  Statement exists = prepare("SELECT to_regclass('gpurace_schema') IS NOT NULL");
  exists.step();
  if (!exists.integer(0))
    return 0;
  Statement s = prepare("SELECT version FROM gpurace_schema");
  return s.step() ? static_cast<int>(s.integer(0)) : 0;
}

void PostgresConnection::setSchemaVersion(int version) {
  exec("CREATE TABLE IF NOT EXISTS gpurace_schema (version BIGINT NOT NULL)");
  exec("DELETE FROM gpurace_schema");
  prepare("INSERT INTO gpurace_schema(version) VALUES (?)")
      .bind(1, static_cast<int64_t>(version))
      .run();
}

void PostgresConnection::beginWrite() {
  exec("BEGIN");
  in_transaction_ = true;
  exec(kWriterLock);
}

void PostgresConnection::commit() {
  // A deferred write that failed fails the commit, still in the
  // transaction, which the caller then rolls back.
  finishPipeline();
  // A failed COMMIT ends the transaction too.
  in_transaction_ = false;
  exec("COMMIT");
  refreshStatisticsWhileYoung();
}

// A new database's tables grow from empty far faster than autovacuum
// re-analyzes them (once a minute at most), and plans made while they were
// empty, such as the foreign-key checks' cached plans, scan them whole:
// ingest into a fresh database slowed down 10x within a minute. ANALYZE
// after the 16th, 64th, ... 65536th write transaction of this connection
// gives the planner true sizes until autovacuum takes over; each one
// invalidates the cached plans.
void PostgresConnection::refreshStatisticsWhileYoung() {
  ++commits_;
  if (commits_ < 16 || commits_ > 65536 || (commits_ & (commits_ - 1)) ||
      (__builtin_ctzll(commits_) % 2))
    return;
  exec("ANALYZE");
}

void PostgresConnection::rollback() noexcept {
  if (!in_transaction_)
    return;
  in_transaction_ = false;
  try {
    finishPipeline();
  } catch (const StatusError &) {
    // The rollback below undoes the failed writes.
  }
  PQclear(PQexec(conn_, "ROLLBACK"));
}

void PostgresConnection::fail(const std::string &what) const {
  throw StatusError(Status::internal("postgresql " + what));
}

} // namespace gpurace::sql
