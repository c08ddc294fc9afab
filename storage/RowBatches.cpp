#include "storage/RowBatches.h"

#include <algorithm>

namespace gpurace::storage {

using sql::Connection;
using sql::Statement;

namespace {

// "(?, ?), (?, ?)" for `rows` rows of `columns` values.
std::string valueRows(size_t rows, size_t columns) {
  std::string row = "(";
  for (size_t c = 0; c < columns; ++c)
    row += c ? ", ?" : "?";
  row += ")";
  std::string out;
  for (size_t r = 0; r < rows; ++r)
    out += (r ? ", " : "") + row;
  return out;
}

// "?, ?, ?" for an IN list.
std::string marks(size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i)
    out += i ? ", ?" : "?";
  return out;
}

// Calls f(first, count) over [0, n) in chunks of kRowsPerStatement.
template <typename F> void inChunks(size_t n, F f) {
  for (size_t first = 0; first < n; first += kRowsPerStatement)
    f(first, std::min(kRowsPerStatement, n - first));
}

// Keys per IN list of a read. A read waits for its answer (a round trip to
// PostgreSQL, where a write is pipelined), so reads take larger chunks;
// each list's length is a power of two, the last key repeated, so that
// only a few statement texts are prepared.
constexpr size_t kKeysPerQuery = 1024;

// Runs `select` + " IN (?, ...)" over `keys`, kKeysPerQuery at a time, with
// the `leading` values bound before the keys; calls `row` on each result
// row.
template <typename Key, typename Row, typename... Leading>
void selectIn(Connection &db, const std::string &select,
              const std::vector<Key> &keys, Row row,
              const Leading &...leading) {
  for (size_t begin = 0; begin < keys.size(); begin += kKeysPerQuery) {
    size_t count = std::min(kKeysPerQuery, keys.size() - begin);
    size_t slots = 1;
    while (slots < count)
      slots *= 2;
    Statement s = db.prepare(select + " IN (" + marks(slots) + ")");
    int p = 0;
    (s.bind(++p, leading), ...);
    for (size_t i = 0; i < slots; ++i)
      s.bind(++p, keys[begin + std::min(i, count - 1)]);
    while (s.step())
      row(s);
  }
}

} // namespace

std::map<std::string, std::string>
findUploads(Connection &db, const std::vector<std::string> &upload_ids) {
  std::map<std::string, std::string> found;
  selectIn(db, "SELECT upload_id, response FROM uploads WHERE upload_id",
           upload_ids,
           [&](const Statement &s) { found[s.text(0)] = s.blob(1); });
  return found;
}

void recordUploads(Connection &db, const std::vector<UploadRow> &uploads) {
  inChunks(uploads.size(), [&](size_t first, size_t count) {
    Statement s =
        db.prepare("INSERT INTO uploads(upload_id, run_id, response) VALUES " +
                   valueRows(count, 3));
    for (size_t i = 0; i < count; ++i) {
      const UploadRow &u = uploads[first + i];
      int p = static_cast<int>(3 * i);
      s.bind(p + 1, u.upload_id).bind(p + 2, u.run).bindBlob(p + 3, u.response);
    }
    s.runDeferred();
  });
}

std::map<std::string, StoredRace>
findRaces(Connection &db, int64_t project_id,
          const std::vector<std::string> &fingerprints) {
  std::map<std::string, StoredRace> found;
  selectIn(
      db,
      "SELECT fingerprint, id, status FROM races WHERE project_id = ? "
      "AND fingerprint",
      fingerprints,
      [&](const Statement &s) {
        found[s.text(0)] = {s.integer(1),
                            static_cast<v1::RaceStatus>(s.integer(2))};
      },
      project_id);
  return found;
}

namespace {

// Binds a new race's 14 columns of insertRaces, from parameter p + 1 on.
void bindRaceRow(Statement &s, int p, int64_t project_id,
                 const v1::RaceCandidate &candidate, int64_t now) {
  bool intentional = candidate.suppression().kind() == "intentional";
  s.bind(p + 1, project_id)
      .bind(p + 2, candidate.fingerprint())
      .bind(p + 3, static_cast<int64_t>(candidate.status()))
      .bind(p + 4, static_cast<int64_t>(candidate.race_class()))
      .bind(p + 5, candidate.kernel())
      .bind(p + 6, candidate.first().location().file())
      .bind(p + 7, candidate.second().location().file())
      .bind(p + 8, candidate.score())
      .bind(p + 9, static_cast<int64_t>(v1::DETECTION_STATE_NEW))
      .bind(p + 10,
            static_cast<int64_t>(intentional ? v1::REVIEW_STATE_INTENTIONAL
                                             : v1::REVIEW_STATE_UNREVIEWED))
      .bind(p + 11,
            intentional ? candidate.suppression().reason() : std::string())
      .bind(p + 12, std::string(intentional ? "source comment" : ""))
      .bind(p + 13, intentional ? now : int64_t{0})
      .bind(p + 14, now);
}

// The race rows of candidates[first, first + count); their ids in order.
std::vector<int64_t>
insertRaceRows(Connection &db, int64_t project_id,
               const std::vector<v1::RaceCandidate> &candidates, size_t first,
               size_t count, int64_t now) {
  Statement s = db.prepare(
      "INSERT INTO races(project_id, fingerprint, status, race_class, kernel, "
      "first_file, second_file, score, detection_state, review_state, "
      "review_comment, review_author, review_updated_at, first_seen) VALUES " +
      valueRows(count, 14) + " RETURNING fingerprint, id");
  for (size_t i = 0; i < count; ++i)
    bindRaceRow(s, static_cast<int>(14 * i), project_id, candidates[first + i],
                now);
  // RETURNING rows come in no promised order; a fingerprint is one row.
  std::map<std::string, int64_t> ids;
  while (s.step())
    ids[s.text(0)] = s.integer(1);
  std::vector<int64_t> out;
  for (size_t i = 0; i < count; ++i)
    out.push_back(ids.at(candidates[first + i].fingerprint()));
  return out;
}

} // namespace

std::vector<int64_t>
insertRaces(Connection &db, int64_t project_id,
            const std::vector<v1::RaceCandidate> &candidates, int64_t now) {
  std::vector<int64_t> ids;
  inChunks(candidates.size(), [&](size_t first, size_t count) {
    std::vector<int64_t> chunk =
        insertRaceRows(db, project_id, candidates, first, count, now);
    Statement blobs =
        db.prepare("INSERT INTO race_candidates(race_id, candidate) VALUES " +
                   valueRows(count, 2));
    Statement counters =
        db.prepare("INSERT INTO race_counters(race_id, project_id, last_seen, "
                   "occurrence_count) VALUES " +
                   valueRows(count, 4));
    for (size_t i = 0; i < count; ++i) {
      int p = static_cast<int>(2 * i);
      blobs.bind(p + 1, chunk[i])
          .bindBlob(p + 2, candidates[first + i].SerializeAsString());
      p = static_cast<int>(4 * i);
      counters.bind(p + 1, chunk[i])
          .bind(p + 2, project_id)
          .bind(p + 3, now)
          .bind(p + 4, int64_t{0});
    }
    blobs.runDeferred();
    counters.runDeferred();
    ids.insert(ids.end(), chunk.begin(), chunk.end());
  });
  return ids;
}

void updateRaceCandidates(
    Connection &db,
    const std::vector<std::pair<int64_t, v1::RaceCandidate>> &races) {
  inChunks(races.size(), [&](size_t first, size_t count) {
    Statement columns = db.prepare(
        "UPDATE races SET race_class = v.column2, kernel = v.column3, "
        "first_file = v.column4, second_file = v.column5, score = v.column6 "
        "FROM (VALUES " +
        valueRows(count, 6) + ") AS v WHERE races.id = v.column1");
    Statement blobs = db.prepare(
        "UPDATE race_candidates SET candidate = v.column2 FROM (VALUES " +
        valueRows(count, 2) +
        ") AS v WHERE race_candidates.race_id = v.column1");
    for (size_t i = 0; i < count; ++i) {
      const auto &[race, candidate] = races[first + i];
      int p = static_cast<int>(6 * i);
      columns.bind(p + 1, race)
          .bind(p + 2, static_cast<int64_t>(candidate.race_class()))
          .bind(p + 3, candidate.kernel())
          .bind(p + 4, candidate.first().location().file())
          .bind(p + 5, candidate.second().location().file())
          .bind(p + 6, candidate.score());
      p = static_cast<int>(2 * i);
      blobs.bind(p + 1, race).bindBlob(p + 2, candidate.SerializeAsString());
    }
    columns.runDeferred();
    blobs.runDeferred();
  });
}

void confirmRaces(Connection &db, const std::vector<int64_t> &races) {
  inChunks(races.size(), [&](size_t first, size_t count) {
    Statement s = db.prepare("UPDATE races SET status = ? WHERE id IN (" +
                             marks(count) + ")");
    s.bind(1, static_cast<int64_t>(v1::RACE_STATUS_CONFIRMED));
    for (size_t i = 0; i < count; ++i)
      s.bind(static_cast<int>(i + 2), races[first + i]);
    s.runDeferred();
  });
}

std::vector<int64_t> insertRuntimeRuns(Connection &db,
                                       const std::vector<RuntimeRunRow> &runs,
                                       int64_t now) {
  std::vector<int64_t> ids;
  inChunks(runs.size(), [&](size_t first, size_t count) {
    Statement s = db.prepare(
        "INSERT INTO runs(project_id, kind, commit_sha, branch, metadata, "
        "uploaded_at, full_analysis, tool_version, races_added, "
        "races_resolved, races_seen) VALUES " +
        valueRows(count, 11) + " RETURNING id");
    for (size_t i = 0; i < count; ++i) {
      const RuntimeRunRow &run = runs[first + i];
      int p = static_cast<int>(11 * i);
      s.bind(p + 1, run.project)
          .bind(p + 2, std::string("runtime"))
          .bind(p + 3, run.metadata->commit())
          .bind(p + 4, run.metadata->branch())
          .bindBlob(p + 5, run.metadata->SerializeAsString())
          .bind(p + 6, now)
          .bind(p + 7, int64_t{0})
          .bind(p + 8, std::string())
          .bind(p + 9, static_cast<int64_t>(run.added))
          .bind(p + 10, int64_t{0})
          .bind(p + 11, static_cast<int64_t>(run.seen));
    }
    // Ids are drawn row after row, in the VALUES' order, on both backends;
    // RETURNING rows come in no promised order, so they are sorted.
    std::vector<int64_t> chunk;
    while (s.step())
      chunk.push_back(s.integer(0));
    std::sort(chunk.begin(), chunk.end());
    ids.insert(ids.end(), chunk.begin(), chunk.end());
  });
  return ids;
}

std::map<int64_t, v1::DetectionState>
branchStates(Connection &db, const std::string &branch,
             const std::vector<int64_t> &races) {
  std::map<int64_t, v1::DetectionState> states;
  selectIn(
      db,
      "SELECT race_id, state FROM race_branches WHERE branch = ? AND race_id",
      races,
      [&](const Statement &s) {
        states[s.integer(0)] = static_cast<v1::DetectionState>(s.integer(1));
      },
      branch);
  return states;
}

void setBranchStates(
    Connection &db, const std::string &branch,
    const std::vector<std::pair<int64_t, v1::DetectionState>> &states) {
  inChunks(states.size(), [&](size_t first, size_t count) {
    Statement upsert = db.prepare(
        "INSERT INTO race_branches(race_id, branch, state) VALUES " +
        valueRows(count, 3) +
        " ON CONFLICT(race_id, branch) DO UPDATE SET state = excluded.state");
    for (size_t i = 0; i < count; ++i) {
      const auto &[race, state] = states[first + i];
      int p = static_cast<int>(3 * i);
      upsert.bind(p + 1, race)
          .bind(p + 2, branch)
          .bind(p + 3, static_cast<int64_t>(state));
    }
    upsert.runDeferred();
  });
}

// VALUES columns are column1, column2 in both SQLite and PostgreSQL.
void setLatestStates(
    Connection &db,
    const std::vector<std::pair<int64_t, v1::DetectionState>> &states) {
  inChunks(states.size(), [&](size_t first, size_t count) {
    Statement latest = db.prepare(
        "UPDATE races SET detection_state = v.column2 FROM (VALUES " +
        valueRows(count, 2) + ") AS v WHERE races.id = v.column1");
    for (size_t i = 0; i < count; ++i) {
      const auto &[race, state] = states[first + i];
      int p = static_cast<int>(2 * i);
      latest.bind(p + 1, race).bind(p + 2, static_cast<int64_t>(state));
    }
    latest.runDeferred();
  });
}

void recordRunRaces(Connection &db, const std::vector<RunRaceRow> &rows) {
  sql::Rows values(3);
  for (const RunRaceRow &row : rows)
    values.integer(row.run).integer(row.race).integer(
        static_cast<int64_t>(row.state));
  db.insertRows("run_races", {"run_id", "race_id", "state"}, values);
}

namespace {

// Adds each race's total count and moves its last_seen. One row per race:
// an UPDATE ... FROM matching a race twice would add only one of its
// counts.
void addToCounters(Connection &db, int64_t now,
                   const std::map<int64_t, int64_t> &counts) {
  std::vector<std::pair<int64_t, int64_t>> totals(counts.begin(), counts.end());
  inChunks(totals.size(), [&](size_t first, size_t count) {
    Statement s = db.prepare(
        "UPDATE race_counters SET last_seen = ?, occurrence_count = "
        "occurrence_count + v.column2 FROM (VALUES " +
        valueRows(count, 2) + ") AS v WHERE race_counters.race_id = v.column1");
    s.bind(1, now);
    for (size_t i = 0; i < count; ++i) {
      int p = static_cast<int>(2 * i);
      s.bind(p + 2, totals[first + i].first)
          .bind(p + 3, totals[first + i].second);
    }
    s.runDeferred();
  });
}

} // namespace

void addOccurrences(Connection &db, int64_t now,
                    const std::vector<OccurrenceRow> &occurrences) {
  std::map<int64_t, int64_t> counts;
  sql::Rows values(5);
  for (const OccurrenceRow &row : occurrences) {
    auto n = static_cast<int64_t>(row.occurrence.count());
    counts[row.race] += n;
    values.integer(row.race)
        .integer(row.run)
        .integer(now)
        .integer(n)
        .blob(row.occurrence.SerializeAsString());
  }
  db.insertRows("occurrences", {"race_id", "run_id", "seen_at", "count", "detail"},
                values);
  addToCounters(db, now, counts);
}

} // namespace gpurace::storage
