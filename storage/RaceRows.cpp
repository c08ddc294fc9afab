#include "storage/RaceRows.h"

#include <chrono>

namespace gpurace::storage {

using sql::Connection;
using sql::Statement;
using sql::StatusError;

int64_t nowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

google::protobuf::Timestamp toTimestamp(int64_t micros) {
  // Seconds rounded down: a Timestamp's nanos are never negative, before
  // 1970 either, and one with negative nanos has no JSON.
  int64_t seconds = micros / 1000000;
  int64_t rest = micros % 1000000;
  if (rest < 0) {
    --seconds;
    rest += 1000000;
  }
  google::protobuf::Timestamp t;
  t.set_seconds(seconds);
  t.set_nanos(static_cast<int32_t>(rest) * 1000);
  return t;
}

std::string publicRunId(int64_t id) { return "run-" + std::to_string(id); }

std::optional<int64_t> parseRunId(const std::string &run_id) {
  const std::string prefix = "run-";
  if (run_id.size() <= prefix.size() || run_id.size() > prefix.size() + 18 ||
      run_id.compare(0, prefix.size(), prefix) != 0)
    return std::nullopt;
  int64_t id = 0;
  for (size_t i = prefix.size(); i < run_id.size(); ++i) {
    if (run_id[i] < '0' || run_id[i] > '9')
      return std::nullopt;
    id = id * 10 + (run_id[i] - '0');
  }
  return id;
}

std::optional<int64_t> findProjectId(Connection &db, const std::string &name) {
  Statement s = db.prepare("SELECT id FROM projects WHERE name = ?");
  s.bind(1, name);
  if (!s.step())
    return std::nullopt;
  return s.integer(0);
}

int64_t insertedId(Statement &insert) {
  if (!insert.step())
    throw StatusError(Status::internal("INSERT ... RETURNING id gave no row"));
  return insert.integer(0);
}

int64_t projectIdFor(Connection &db, const std::string &name) {
  if (auto id = findProjectId(db, name))
    return *id;
  return insertedId(
      db.prepare("INSERT INTO projects(name) VALUES (?) RETURNING id")
          .bind(1, name));
}

int64_t insertRun(Connection &db, int64_t project_id, const char *kind,
                  const v1::RunMetadata &metadata, bool full_analysis,
                  const std::string &tool_version, int64_t now) {
  Statement insert =
      db.prepare("INSERT INTO runs(project_id, kind, commit_sha, branch, "
                 "metadata, uploaded_at, full_analysis, tool_version) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id");
  insert.bind(1, project_id)
      .bind(2, std::string(kind))
      .bind(3, metadata.commit())
      .bind(4, metadata.branch())
      .bindBlob(5, metadata.SerializeAsString())
      .bind(6, now)
      .bind(7, static_cast<int64_t>(full_analysis))
      .bind(8, tool_version);
  return insertedId(insert);
}

void setRunCounts(Connection &db, int64_t run, uint32_t added, uint32_t resolved,
                  uint32_t seen) {
  db.prepare("UPDATE runs SET races_added = ?, races_resolved = ?, "
             "races_seen = ? WHERE id = ?")
      .bind(1, static_cast<int64_t>(added))
      .bind(2, static_cast<int64_t>(resolved))
      .bind(3, static_cast<int64_t>(seen))
      .bind(4, run)
      .run();
}

std::optional<std::string> findUpload(Connection &db,
                                      const std::string &upload_id) {
  Statement s = db.prepare("SELECT response FROM uploads WHERE upload_id = ?");
  s.bind(1, upload_id);
  if (!s.step())
    return std::nullopt;
  return s.blob(0);
}

void recordUpload(Connection &db, const std::string &upload_id, int64_t run,
                  const std::string &response) {
  db.prepare("INSERT INTO uploads(upload_id, run_id, response) VALUES (?, ?, ?)")
      .bind(1, upload_id)
      .bind(2, run)
      .bindBlob(3, response)
      .run();
}

const char *const kRaceColumns =
    "r.id, p.name, r.fingerprint, k.candidate, r.status, r.review_state, "
    "r.review_comment, r.review_author, r.review_updated_at, r.first_seen, "
    "c.last_seen, c.occurrence_count, r.detection_state";

const char *const kRaceTables =
    "races r JOIN projects p ON p.id = r.project_id "
    "JOIN race_counters c ON c.race_id = r.id "
    "JOIN race_candidates k ON k.race_id = r.id";

v1::Race readRace(const Statement &row, int first) {
  v1::Race race;
  race.set_id(row.integer(first));
  race.set_project(row.text(first + 1));
  race.set_fingerprint(row.text(first + 2));
  *race.mutable_candidate() =
      parseBlob<v1::RaceCandidate>(row.blob(first + 3), "race candidate");
  race.set_status(static_cast<v1::RaceStatus>(row.integer(first + 4)));
  race.mutable_candidate()->set_status(race.status());
  v1::Review *review = race.mutable_review();
  review->set_state(static_cast<v1::ReviewState>(row.integer(first + 5)));
  review->set_comment(row.text(first + 6));
  review->set_author(row.text(first + 7));
  if (int64_t at = row.integer(first + 8))
    *review->mutable_updated_at() = toTimestamp(at);
  *race.mutable_first_seen() = toTimestamp(row.integer(first + 9));
  *race.mutable_last_seen() = toTimestamp(row.integer(first + 10));
  race.set_occurrence_count(static_cast<uint64_t>(row.integer(first + 11)));
  race.set_detection_state(
      static_cast<v1::DetectionState>(row.integer(first + 12)));
  return race;
}

const char *const kRunColumns =
    "u.id, u.kind, u.metadata, u.uploaded_at, u.races_added, "
    "u.races_resolved, u.races_seen, u.tool_version";

v1::Run readRun(const Statement &row, int first) {
  v1::Run run;
  run.set_run_id(publicRunId(row.integer(first)));
  run.set_kind(row.text(first + 1));
  *run.mutable_metadata() =
      parseBlob<v1::RunMetadata>(row.blob(first + 2), "run metadata");
  *run.mutable_uploaded_at() = toTimestamp(row.integer(first + 3));
  run.set_races_added(static_cast<uint32_t>(row.integer(first + 4)));
  run.set_races_resolved(static_cast<uint32_t>(row.integer(first + 5)));
  run.set_races_seen(static_cast<uint32_t>(row.integer(first + 6)));
  run.set_tool_version(row.text(first + 7));
  return run;
}

} // namespace gpurace::storage
