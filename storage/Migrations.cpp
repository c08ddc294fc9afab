#include "storage/Migrations.h"

#include <optional>
#include <regex>
#include <utility>
#include <vector>

namespace gpurace::storage {

namespace {

// Times are microseconds since the Unix epoch. Protos are stored serialized
// (BLOB) so that the server returns exactly what it was given; the columns
// beside them exist only to filter, sort and join.
const char *const kSchemaV1 = R"sql(
CREATE TABLE projects (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
-- AUTOINCREMENT: a run's public id ("run-<id>") is never reused after a
-- prune.
CREATE TABLE runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('analysis', 'runtime')),
  commit_sha TEXT NOT NULL,
  branch TEXT NOT NULL,
  metadata BLOB NOT NULL,
  uploaded_at INTEGER NOT NULL,
  full_analysis INTEGER NOT NULL,
  tool_version TEXT NOT NULL,
  races_added INTEGER NOT NULL DEFAULT 0,
  races_resolved INTEGER NOT NULL DEFAULT 0,
  races_seen INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX runs_by_branch ON runs(project_id, branch, id);
CREATE INDEX runs_by_commit ON runs(project_id, commit_sha);
CREATE TABLE races (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  fingerprint TEXT NOT NULL,
  candidate BLOB NOT NULL,
  status INTEGER NOT NULL,
  race_class INTEGER NOT NULL,
  kernel TEXT NOT NULL,
  first_file TEXT NOT NULL,
  second_file TEXT NOT NULL,
  score REAL NOT NULL,
  detection_state INTEGER NOT NULL,
  review_state INTEGER NOT NULL DEFAULT 1,
  review_comment TEXT NOT NULL DEFAULT '',
  review_author TEXT NOT NULL DEFAULT '',
  review_updated_at INTEGER NOT NULL DEFAULT 0,
  first_seen INTEGER NOT NULL,
  last_seen INTEGER NOT NULL,
  occurrence_count INTEGER NOT NULL DEFAULT 0,
  UNIQUE (project_id, fingerprint)
);
-- Detection state of a race on one branch.
CREATE TABLE race_branches (
  race_id INTEGER NOT NULL REFERENCES races(id) ON DELETE CASCADE,
  branch TEXT NOT NULL,
  state INTEGER NOT NULL,
  PRIMARY KEY (race_id, branch)
);
CREATE INDEX race_branches_by_branch ON race_branches(branch, state);
-- What a run did to a race: saw it (new, unresolved, reopened) or resolved
-- it.
CREATE TABLE run_races (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  race_id INTEGER NOT NULL REFERENCES races(id) ON DELETE CASCADE,
  state INTEGER NOT NULL,
  PRIMARY KEY (run_id, race_id)
);
CREATE INDEX run_races_by_race ON run_races(race_id, run_id);
CREATE TABLE occurrences (
  id INTEGER PRIMARY KEY,
  race_id INTEGER NOT NULL REFERENCES races(id) ON DELETE CASCADE,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seen_at INTEGER NOT NULL,
  count INTEGER NOT NULL,
  detail BLOB NOT NULL
);
CREATE INDEX occurrences_by_race ON occurrences(race_id, id);
CREATE INDEX occurrences_by_run ON occurrences(run_id);
CREATE TABLE reviews (
  id INTEGER PRIMARY KEY,
  race_id INTEGER NOT NULL REFERENCES races(id) ON DELETE CASCADE,
  state INTEGER NOT NULL,
  comment TEXT NOT NULL,
  author TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX reviews_by_race ON reviews(race_id, id);
-- Client-chosen upload ids: a retry returns the stored response.
CREATE TABLE uploads (
  upload_id TEXT PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  response BLOB NOT NULL
);
CREATE TABLE api_tokens (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  project TEXT NOT NULL,
  role INTEGER NOT NULL CHECK (role BETWEEN 1 AND 3),
  token_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);
)sql";

// Sorting and filtering the race list by these stays an index walk at a
// million occurrences.
const char *const kSchemaV2 = R"sql(
CREATE INDEX races_by_score ON races(project_id, score DESC, id);
CREATE INDEX races_by_last_seen ON races(project_id, last_seen DESC, id);
)sql";

// The perf findings of each analysis run (`analyze --perf`): a kind of
// finding of their own, kept with the run that states them.
const char *const kSchemaV3 = R"sql(
CREATE TABLE run_perf_findings (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  fingerprint TEXT NOT NULL,
  kind INTEGER NOT NULL,
  ratio REAL NOT NULL,
  finding BLOB NOT NULL,
  PRIMARY KEY (run_id, fingerprint)
);
)sql";

// The race row keeps what the list filters, sorts and counts on; the
// two parts that are not are tables of their own, one row per race:
// - race_counters, what every sighting changes. Updating the race row
//   rewrote the candidate blob and, as last_seen was indexed, every index
//   of the table (PostgreSQL writes a new row version per update); a
//   counter row is a few bytes in two small indexes. The list sorted by
//   last_seen walks the project's last_seen index and stops after a page.
//   The count has no index: each one would cost every sighting two more
//   index updates, and sorting a project's counters by it is cheap.
// - race_candidates, the analysis's candidate, read only for the rows of
//   a page: counting and filtering the races no longer reads it.
const char *const kSchemaV4 = R"sql(
CREATE TABLE race_candidates (
  race_id INTEGER NOT NULL PRIMARY KEY REFERENCES races(id) ON DELETE CASCADE,
  candidate BLOB NOT NULL
);
INSERT INTO race_candidates (race_id, candidate) SELECT id, candidate FROM races;
ALTER TABLE races DROP COLUMN candidate;
CREATE TABLE race_counters (
  race_id INTEGER NOT NULL PRIMARY KEY REFERENCES races(id) ON DELETE CASCADE,
  project_id INTEGER NOT NULL,
  last_seen INTEGER NOT NULL,
  occurrence_count INTEGER NOT NULL
);
INSERT INTO race_counters (race_id, project_id, last_seen, occurrence_count)
  SELECT id, project_id, last_seen, occurrence_count FROM races;
CREATE INDEX race_counters_by_last_seen
  ON race_counters(project_id, last_seen DESC, race_id);
DROP INDEX races_by_last_seen;
ALTER TABLE races DROP COLUMN last_seen;
ALTER TABLE races DROP COLUMN occurrence_count;
)sql";

// On PostgreSQL only: the list sorted by occurrence count walks an index
// of the counters instead of reading all of a project's counter rows.
// Every sighting rewrites its race's counter row, and PostgreSQL keeps
// the old versions until vacuum: at a million observations the 10,000
// counters of the benchmark filled 16 MB, and the count sort of a class
// filter read them all (6.5-7.6 ms warm against 2.7-2.8 ms with the
// index). The index adds no measurable time to PostgreSQL's counter
// updates (7,000 rows: 42.5 ms without, 43.9 ms with it, the best of 9)
// as they already write new index entries for last_seen. On SQLite, which
// updates its rows in place and whose list meets its budget without it,
// such an index cost ingest dearly (13,080 against 22,855 obs/s with 8
// agents; see bench/README.md), so SQLite's schema skips it.
const char *const kSchemaV5 = R"sql(
CREATE INDEX race_counters_by_count
  ON race_counters(project_id, occurrence_count DESC, race_id);
)sql";

// On PostgreSQL only: occurrences and run rows, the two tables that every
// report adds rows to, keep no foreign keys. Their checks were the largest
// cost of PostgreSQL's ingest (38% of the writer's samples; each is a
// query that locks the referenced row), and they guard nothing the store
// does not: every row of these tables is written under the writer lock,
// with the ids of a run and of races that the same transaction wrote or
// read, and pruning deletes them with their runs and races
// (Retention.cpp). PostgreSQL ingest rose 1.1-1.4x with 8 agents and
// 1.5-1.7x with 64 in paired runs (bench/README.md). SQLite cannot drop a
// constraint short of copying the table and meets its targets with them.
const char *const kSchemaV6 = R"sql(
ALTER TABLE occurrences DROP CONSTRAINT IF EXISTS occurrences_race_id_fkey,
  DROP CONSTRAINT IF EXISTS occurrences_run_id_fkey;
ALTER TABLE run_races DROP CONSTRAINT IF EXISTS run_races_run_id_fkey,
  DROP CONSTRAINT IF EXISTS run_races_race_id_fkey;
)sql";

struct Migration {
  const char *ddl;
  // The one dialect that runs it; the other only records the version.
  std::optional<sql::Dialect> only;
};

const std::vector<Migration> &migrations() {
  static const std::vector<Migration> all = {
      {kSchemaV1, std::nullopt}, {kSchemaV2, std::nullopt},
      {kSchemaV3, std::nullopt}, {kSchemaV4, std::nullopt},
      {kSchemaV5, sql::Dialect::kPostgres},
      {kSchemaV6, sql::Dialect::kPostgres}};
  return all;
}

// The migrations are written once, in SQLite's words; PostgreSQL gets the
// same tables with its own names for the types: 64-bit integers (times are
// microseconds), identity keys that are never reused, BYTEA, 8-byte REAL.
std::string inDialect(const char *ddl, sql::Dialect dialect) {
  if (dialect == sql::Dialect::kSqlite)
    return ddl;
  static const std::vector<std::pair<std::regex, const char *>> renames = {
      {std::regex(R"(\bINTEGER PRIMARY KEY( AUTOINCREMENT)?\b)"),
       "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"},
      {std::regex(R"(\bINTEGER\b)"), "BIGINT"},
      {std::regex(R"(\bBLOB\b)"), "BYTEA"},
      {std::regex(R"(\bREAL\b)"), "DOUBLE PRECISION"},
  };
  std::string out = ddl;
  for (const auto &[pattern, replacement] : renames)
    out = std::regex_replace(out, pattern, replacement);
  return out;
}

} // namespace

int latestSchemaVersion() { return static_cast<int>(migrations().size()); }

std::string migrationText(int version, sql::Dialect dialect) {
  const Migration &migration = migrations().at(version - 1);
  if (migration.only && *migration.only != dialect)
    return "";
  return inDialect(migration.ddl, dialect);
}

int migrate(sql::Connection &db) {
  int applied = 0;
  while (true) {
    // The version is read under the writer lock: two servers starting on
    // one empty database apply each migration once.
    sql::Transaction transaction(db);
    int version = db.schemaVersion();
    if (version > latestSchemaVersion())
      throw sql::StatusError(
          {StatusCode::kFailedPrecondition,
           "database schema version " + std::to_string(version) +
               " is newer than this gpurace supports (" +
               std::to_string(latestSchemaVersion()) + "): upgrade gpurace"});
    if (version == latestSchemaVersion())
      return applied;
    if (std::string ddl = migrationText(version + 1, db.dialect());
        !ddl.empty())
      db.exec(ddl);
    db.setSchemaVersion(version + 1);
    transaction.commit();
    ++applied;
  }
}

} // namespace gpurace::storage
