#include "storage/Retention.h"

#include <optional>

namespace gpurace::storage {

namespace {

// The runs past the newest `keep` of their project, branch and kind.
constexpr const char *kAgedRuns =
    "SELECT id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY project_id, "
    "branch, kind ORDER BY id DESC) AS age FROM runs) AS aged WHERE age > ?";

// Races that no kept run saw or resolved.
constexpr const char *kUnseenRaces =
    "SELECT id FROM races WHERE NOT EXISTS "
    "(SELECT 1 FROM run_races x WHERE x.race_id = races.id)";

// Deletes the rows whose `column` is among `ids`, a query that takes
// `keep_runs` as its parameter where it has one.
void deleteWhereIn(sql::Connection &db, const std::string &table,
                   const std::string &column, const std::string &ids,
                   std::optional<int64_t> keep_runs = std::nullopt) {
  sql::Statement s = db.prepare("DELETE FROM " + table + " WHERE " + column +
                                " IN (" + ids + ")");
  if (keep_runs)
    s.bind(1, *keep_runs);
  s.run();
}

} // namespace

// Occurrences and run rows are deleted here, not by a cascade: on
// PostgreSQL those two tables keep no foreign keys (migration 6), as every
// row of them is written under the writer lock with the ids of a run and
// races of the same transaction.
PruneResult prune(sql::Connection &db, uint32_t keep_runs) {
  PruneResult result;
  const int64_t keep = keep_runs;
  deleteWhereIn(db, "occurrences", "run_id", kAgedRuns, keep);
  deleteWhereIn(db, "run_races", "run_id", kAgedRuns, keep);
  deleteWhereIn(db, "runs", "id", kAgedRuns, keep);
  result.runs_deleted = static_cast<uint32_t>(db.changes());
  deleteWhereIn(db, "occurrences", "race_id", kUnseenRaces);
  deleteWhereIn(db, "races", "id", kUnseenRaces);
  result.races_deleted = static_cast<uint32_t>(db.changes());
  return result;
}

} // namespace gpurace::storage
