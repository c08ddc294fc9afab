// `gpurace db migrate|prune|backup`.
#include "server/cli/Commands.h"
#include "storage/Connect.h"
#include "storage/Migrations.h"
#include "storage/PostgresConnection.h"
#include "storage/SqlRaceStore.h"

#include <iostream>
#include <memory>

namespace gpurace {

namespace {

struct DbFlags {
  std::string db = "gpurace.db";
  uint32_t keep_runs = 0;
  std::string to;
};

int migrateDb(DbFlags &flags) {
  try {
    std::unique_ptr<sql::Connection> db = sql::connect(flags.db);
    int before = db->schemaVersion();
    int applied = storage::migrate(*db);
    std::cout << "gpurace db migrate: " << sql::redactedUrl(flags.db)
              << " at schema version " << db->schemaVersion() << " (was "
              << before << ", " << applied << " migration"
              << (applied == 1 ? "" : "s") << " applied)\n";
  } catch (const sql::StatusError &e) {
    return reportError("db migrate", e.status);
  }
  return kExitOk;
}

int pruneDb(DbFlags &flags) {
  auto store = SqlRaceStore::open(flags.db);
  if (!store.ok())
    return reportError("db prune", store.status());
  auto pruned = (*store)->prune(flags.keep_runs);
  if (!pruned.ok())
    return reportError("db prune", pruned.status());
  std::cout << "gpurace db prune: deleted " << pruned->runs_deleted
            << " runs and " << pruned->races_deleted << " races\n";
  return kExitOk;
}

int backupDb(DbFlags &flags) {
  auto store = SqlRaceStore::open(flags.db);
  if (!store.ok())
    return reportError("db backup", store.status());
  if (Status s = (*store)->backup(flags.to); !s.ok())
    return reportError("db backup", s);
  std::cout << "gpurace db backup: " << sql::redactedUrl(flags.db)
            << " copied to " << flags.to << "\n";
  return kExitOk;
}

} // namespace

Subcommand dbCommand() {
  Subcommand command;
  command.name = "db";
  command.summary = "Maintain the race database (migrate, prune, backup)";
  command.setup = [](CLI::App &app, const CommandContext &) {
    auto flags = std::make_shared<DbFlags>();
    app.add_option("--db", flags->db,
                   "SQLite file or postgresql://USER@HOST/DB URI (default: "
                   "gpurace.db)");
    CLI::App *m = app.add_subcommand("migrate", "Bring the schema up to date");
    m->fallthrough();
    CLI::App *p = app.add_subcommand(
        "prune", "Keep the newest N runs per project, branch and kind");
    p->add_option("--keep-runs", flags->keep_runs, "runs to keep (>= 1)")
        ->required()
        ->check(CLI::PositiveNumber);
    p->fallthrough();
    CLI::App *b = app.add_subcommand(
        "backup", "Copy the database while the server runs: SQLite's online "
                  "backup API, or pg_dump's custom format for PostgreSQL "
                  "(restore with pg_restore)");
    b->add_option("--to", flags->to, "destination file")->required();
    b->fallthrough();
    useActionUsage(app);
    app.require_subcommand(1, 1);
    return [flags, m, p]() {
      if (m->parsed())
        return migrateDb(*flags);
      if (p->parsed())
        return pruneDb(*flags);
      return backupDb(*flags);
    };
  };
  return command;
}

} // namespace gpurace
