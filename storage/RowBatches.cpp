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

} // namespace

namespace {

// Runs `select` + " IN (?, ...)" over `keys`, a chunk at a time, with
// `first` bound before the keys; calls `row` on each result row.
template <typename First, typename Key, typename Row>
void selectIn(Connection &db, const std::string &select, const First &first,
              const std::vector<Key> &keys, Row row) {
  inChunks(keys.size(), [&](size_t begin, size_t count) {
    Statement s = db.prepare(select + " IN (" + marks(count) + ")");
    s.bind(1, first);
    for (size_t i = 0; i < count; ++i)
      s.bind(static_cast<int>(i + 2), keys[begin + i]);
    while (s.step())
      row(s);
  });
}

} // namespace

std::map<std::string, StoredRace>
findRaces(Connection &db, int64_t project_id,
          const std::vector<std::string> &fingerprints) {
  std::map<std::string, StoredRace> found;
  selectIn(db,
           "SELECT fingerprint, id, status FROM races WHERE project_id = ? "
           "AND fingerprint",
           project_id, fingerprints, [&](const Statement &s) {
             found[s.text(0)] = {s.integer(1),
                                 static_cast<v1::RaceStatus>(s.integer(2))};
           });
  return found;
}

std::map<int64_t, v1::DetectionState>
branchStates(Connection &db, const std::string &branch,
             const std::vector<int64_t> &races) {
  std::map<int64_t, v1::DetectionState> states;
  selectIn(db,
           "SELECT race_id, state FROM race_branches WHERE branch = ? AND "
           "race_id",
           branch, races, [&](const Statement &s) {
             states[s.integer(0)] =
                 static_cast<v1::DetectionState>(s.integer(1));
           });
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
    Statement latest = db.prepare(
        "UPDATE races SET detection_state = v.column2 FROM (VALUES " +
        valueRows(count, 2) + ") AS v WHERE races.id = v.column1");
    for (size_t i = 0; i < count; ++i) {
      const auto &[race, state] = states[first + i];
      int p = static_cast<int>(3 * i);
      upsert.bind(p + 1, race).bind(p + 2, branch).bind(
          p + 3, static_cast<int64_t>(state));
      p = static_cast<int>(2 * i);
      latest.bind(p + 1, race).bind(p + 2, static_cast<int64_t>(state));
    }
    upsert.run();
    latest.run();
  });
}

void recordRunRaces(
    Connection &db, int64_t run,
    const std::vector<std::pair<int64_t, v1::DetectionState>> &races) {
  inChunks(races.size(), [&](size_t first, size_t count) {
    Statement s = db.prepare("INSERT INTO run_races(run_id, race_id, state) "
                             "VALUES " +
                             valueRows(count, 3) + " ON CONFLICT DO NOTHING");
    for (size_t i = 0; i < count; ++i) {
      int p = static_cast<int>(3 * i);
      s.bind(p + 1, run)
          .bind(p + 2, races[first + i].first)
          .bind(p + 3, static_cast<int64_t>(races[first + i].second));
    }
    s.run();
  });
}

void addOccurrences(
    Connection &db, int64_t run, int64_t now,
    const std::vector<std::pair<int64_t, v1::Occurrence>> &occurrences) {
  std::map<int64_t, int64_t> counts;
  inChunks(occurrences.size(), [&](size_t first, size_t count) {
    Statement s = db.prepare(
        "INSERT INTO occurrences(race_id, run_id, seen_at, count, detail) "
        "VALUES " +
        valueRows(count, 5));
    for (size_t i = 0; i < count; ++i) {
      const auto &[race, occurrence] = occurrences[first + i];
      auto n = static_cast<int64_t>(occurrence.count());
      counts[race] += n;
      int p = static_cast<int>(5 * i);
      s.bind(p + 1, race)
          .bind(p + 2, run)
          .bind(p + 3, now)
          .bind(p + 4, n)
          .bindBlob(p + 5, occurrence.SerializeAsString());
    }
    s.run();
  });
  // One row per race: an UPDATE ... FROM matching a race twice would add
  // only one of its counts. VALUES columns are column1, column2 in both
  // SQLite and PostgreSQL.
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
    s.run();
  });
}

} // namespace gpurace::storage
