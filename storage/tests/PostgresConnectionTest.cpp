// The libpq layer on a real PostgreSQL server: values round-trip exactly,
// '?' in a literal is text, a NUL byte in text is refused rather than cut,
// a connection the server dropped fails one statement, then reconnects,
// deferred writes are pipelined, their errors failing the transaction, and
// rows inserted with COPY arrive exactly.
#include "storage/PostgresConnection.h"
#include "storage/tests/StoreTestSupport.h"

#include <cstdint>
#include <limits>

namespace gpurace::testing {
namespace {

class PostgresConnectionTest : public PostgresTest {
protected:
  void SetUp() override {
    PostgresTest::SetUp();
    if (!IsSkipped())
      db = std::make_unique<sql::PostgresConnection>(url);
  }
  std::unique_ptr<sql::PostgresConnection> db;
};

TEST_F(PostgresConnectionTest, ValuesRoundTripExactly) {
  db->exec("CREATE TABLE t (i BIGINT, r DOUBLE PRECISION, s TEXT, b BYTEA)");
  std::string bytes;
  for (int c = 0; c < 256; ++c)
    bytes += static_cast<char>(c);
  const std::string text = "naïve 'quoted' \\ ? $1 ✓";
  db->prepare("INSERT INTO t VALUES (?, ?, ?, ?)")
      .bind(1, std::numeric_limits<int64_t>::min())
      .bind(2, 0.1)
      .bind(3, text)
      .bindBlob(4, bytes)
      .run();
  db->prepare("INSERT INTO t VALUES (?, ?, ?, ?)")
      .bind(1, std::numeric_limits<int64_t>::max())
      .bindNull(2)
      .bind(3, std::string())
      .bindBlob(4, std::string())
      .run();
  sql::Statement s =
      db->prepare("SELECT i, r, s, b, r IS NULL FROM t ORDER BY i");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.integer(0), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(s.real(1), 0.1);
  EXPECT_EQ(s.text(2), text);
  EXPECT_EQ(s.blob(3), bytes);
  EXPECT_EQ(s.integer(4), 0);
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.integer(0), std::numeric_limits<int64_t>::max());
  EXPECT_TRUE(s.isNull(1));
  EXPECT_EQ(s.integer(4), 1);
  EXPECT_EQ(s.blob(3), "");
  EXPECT_FALSE(s.step());
}

TEST_F(PostgresConnectionTest, QuestionMarkInALiteralIsText) {
  sql::Statement s = db->prepare("SELECT '?', ? || 'b'");
  s.bind(1, std::string("a"));
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.text(0), "?");
  EXPECT_EQ(s.text(1), "ab");
}

TEST_F(PostgresConnectionTest, TextWithANulByteIsRefusedNotCut) {
  db->exec("CREATE TABLE t (s TEXT)");
  try {
    db->prepare("INSERT INTO t VALUES (?)")
        .bind(1, std::string("before\0after", 12))
        .run();
    FAIL() << "a NUL byte was stored";
  } catch (const sql::StatusError &e) {
    EXPECT_NE(e.status.message.find("0x00"), std::string::npos)
        << e.status.message;
  }
  sql::Statement count = db->prepare("SELECT COUNT(*) FROM t");
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.integer(0), 0);
}

TEST_F(PostgresConnectionTest, ADroppedConnectionFailsOneStatementThenReconnects) {
  int64_t backend = 0;
  {
    sql::Statement pid = db->prepare("SELECT pg_backend_pid()");
    ASSERT_TRUE(pid.step());
    backend = pid.integer(0);
  }
  {
    sql::PostgresConnection admin(url);
    sql::Statement kill =
        admin.prepare("SELECT pg_terminate_backend(CAST(? AS INTEGER))");
    kill.bind(1, backend);
    ASSERT_TRUE(kill.step());
  }
  try {
    db->prepare("SELECT 1").step();
    FAIL() << "a statement on a terminated connection succeeded";
  } catch (const sql::StatusError &e) {
    EXPECT_EQ(e.status.code, StatusCode::kUnavailable) << e.status.message;
  }
  sql::Statement again = db->prepare("SELECT pg_backend_pid()");
  ASSERT_TRUE(again.step());
  EXPECT_NE(again.integer(0), backend);
}

// Deferred writes in a transaction are all stored once the next statement
// reads; one that fails fails the commit, nothing of the transaction
// stays, and the connection serves the next one.
TEST_F(PostgresConnectionTest, DeferredWritesArePipelinedAndTheirErrorsFail) {
  db->exec("CREATE TABLE t (i BIGINT PRIMARY KEY)");
  {
    sql::Transaction transaction(*db);
    for (int64_t i = 1; i <= 3; ++i)
      db->prepare("INSERT INTO t VALUES (?)").bind(1, i).runDeferred();
    sql::Statement count = db->prepare("SELECT count(*) FROM t");
    ASSERT_TRUE(count.step());
    EXPECT_EQ(count.integer(0), 3);
    transaction.commit();
  }
  {
    sql::Transaction transaction(*db);
    db->prepare("INSERT INTO t VALUES (?)").bind(1, int64_t{4}).runDeferred();
    db->prepare("INSERT INTO t VALUES (?)").bind(1, int64_t{1}).runDeferred();
    db->prepare("INSERT INTO t VALUES (?)").bind(1, int64_t{5}).runDeferred();
    try {
      transaction.commit();
      ADD_FAILURE() << "the duplicate key did not fail the commit";
    } catch (const sql::StatusError &e) {
      EXPECT_NE(e.status.message.find("duplicate key"), std::string::npos)
          << e.status.message;
    }
  }
  sql::Statement rows = db->prepare("SELECT count(*), max(i) FROM t");
  ASSERT_TRUE(rows.step());
  EXPECT_EQ(rows.integer(0), 3);
  EXPECT_EQ(rows.integer(1), 3);
}

// insertRows streams the rows with COPY in its binary format: integers at
// both ends of their range, text with the characters COPY's text format
// escapes, every byte value in a blob, empty values. A row that breaks a
// constraint fails its transaction, which leaves nothing, and the
// connection serves the next one.
TEST_F(PostgresConnectionTest, InsertedRowsArriveExactly) {
  db->exec("CREATE TABLE t (i BIGINT PRIMARY KEY, s TEXT, b BYTEA)");
  std::string bytes;
  for (int c = 0; c < 256; ++c)
    bytes += static_cast<char>(c);
  const std::string text = "tab\there\nnewline \\N \\ back\rslash ✓ '?'";
  sql::Rows rows(3);
  rows.integer(std::numeric_limits<int64_t>::min()).text(text).blob(bytes);
  rows.integer(std::numeric_limits<int64_t>::max()).text("").blob("");
  for (int64_t i = 1; i <= 1000; ++i)
    rows.integer(i).text(std::to_string(i)).blob(std::string(i % 7, '\0'));
  {
    sql::Transaction transaction(*db);
    db->prepare("INSERT INTO t VALUES (?, ?, ?)")
        .bind(1, int64_t{-5})
        .bind(2, std::string("before"))
        .bindBlob(3, std::string("x"))
        .runDeferred();
    db->insertRows("t", {"i", "s", "b"}, rows);
    EXPECT_EQ(db->changes(), 1002);
    transaction.commit();
  }
  sql::Statement s = db->prepare("SELECT i, s, b FROM t ORDER BY i LIMIT 3");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.integer(0), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(s.text(1), text);
  EXPECT_EQ(s.blob(2), bytes);
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.integer(0), -5);
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.integer(0), 1);
  EXPECT_EQ(s.blob(2), std::string(1, '\0'));
  sql::Statement last = db->prepare(
      "SELECT s, length(b), count(*) OVER () FROM t ORDER BY i DESC LIMIT 1");
  ASSERT_TRUE(last.step());
  EXPECT_EQ(last.text(0), "");
  EXPECT_EQ(last.integer(1), 0);
  EXPECT_EQ(last.integer(2), 1003);

  {
    sql::Transaction transaction(*db);
    sql::Rows clash(3);
    clash.integer(5000).text("new").blob("");
    clash.integer(7).text("taken").blob("");
    try {
      db->insertRows("t", {"i", "s", "b"}, clash);
      transaction.commit();
      ADD_FAILURE() << "the duplicate key did not fail";
    } catch (const sql::StatusError &e) {
      EXPECT_NE(e.status.message.find("duplicate key"), std::string::npos)
          << e.status.message;
    }
  }
  sql::Statement count = db->prepare("SELECT count(*) FROM t");
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.integer(0), 1003);
  sql::Statement none = db->prepare("SELECT count(*) FROM t WHERE i = 5000");
  ASSERT_TRUE(none.step());
  EXPECT_EQ(none.integer(0), 0);
}

} // namespace
} // namespace gpurace::testing
