#include "storage/DatabaseBackup.h"

#include "storage/PostgresConnection.h"

#include <sqlite3.h>

#include <spawn.h>
#include <sys/wait.h>

#include <vector>

extern char **environ;

namespace gpurace::storage {

void backupSqlite(sql::SqliteConnection &db, const std::string &destination) {
  sql::SqliteConnection target(destination);
  sqlite3_backup *b =
      sqlite3_backup_init(target.handle(), "main", db.handle(), "main");
  if (!b)
    target.fail("backup to '" + destination + "'");
  sqlite3_backup_step(b, -1);
  if (sqlite3_backup_finish(b) != SQLITE_OK)
    target.fail("backup to '" + destination + "'");
}

Status backupPostgres(const std::string &url, const std::string &destination) {
  std::vector<std::string> args = {"pg_dump", "--format=custom",
                                   "--file=" + destination,
                                   "--dbname=" + url};
  std::vector<char *> argv;
  for (std::string &arg : args)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid;
  if (posix_spawnp(&pid, "pg_dump", nullptr, nullptr, argv.data(),
                   environ) != 0)
    return {StatusCode::kFailedPrecondition,
            "backup of " + sql::redactedUrl(url) +
                " needs pg_dump on PATH (Debian: postgresql-client)"};
  int status = 0;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0)
    return Status::internal("pg_dump of " + sql::redactedUrl(url) + " to '" +
                            destination + "' failed (see its message above)");
  return {};
}

} // namespace gpurace::storage
