#include "storage/Migrations.h"

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

const std::vector<const char *> &migrations() {
  static const std::vector<const char *> all = {kSchemaV1, kSchemaV2};
  return all;
}

} // namespace

int latestSchemaVersion() { return static_cast<int>(migrations().size()); }

int migrate(sqlite::Database &db) {
  int version = db.userVersion();
  if (version > latestSchemaVersion())
    throw sqlite::StatusError(
        {StatusCode::kFailedPrecondition,
         "database schema version " + std::to_string(version) +
             " is newer than this gpurace supports (" +
             std::to_string(latestSchemaVersion()) + "): upgrade gpurace"});
  int applied = 0;
  for (int next = version + 1; next <= latestSchemaVersion(); ++next) {
    sqlite::Transaction transaction(db);
    db.exec(migrations()[next - 1]);
    db.setUserVersion(next);
    transaction.commit();
    ++applied;
  }
  return applied;
}

} // namespace gpurace::storage
