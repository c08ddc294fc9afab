#include "storage/Retention.h"

namespace gpurace::storage {

PruneResult prune(sql::Connection &db, uint32_t keep_runs) {
  PruneResult result;
  db.prepare("DELETE FROM runs WHERE id IN (SELECT id FROM (SELECT id, "
             "ROW_NUMBER() OVER (PARTITION BY project_id, branch, kind "
             "ORDER BY id DESC) AS age FROM runs) AS aged WHERE age > ?)")
      .bind(1, static_cast<int64_t>(keep_runs))
      .run();
  result.runs_deleted = static_cast<uint32_t>(db.changes());
  db.prepare("DELETE FROM races WHERE NOT EXISTS "
             "(SELECT 1 FROM run_races x WHERE x.race_id = races.id)")
      .run();
  result.races_deleted = static_cast<uint32_t>(db.changes());
  return result;
}

} // namespace gpurace::storage
