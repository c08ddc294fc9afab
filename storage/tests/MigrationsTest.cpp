// Schema versions: an empty file migrates to the newest, a newer file is
// refused, re-opening applies nothing.
#include "storage/Migrations.h"
#include "storage/tests/StoreTestSupport.h"

namespace gpurace::testing {
namespace {

TEST(Migrations, EmptyFileReachesTheLatestVersion) {
  TempDir dir;
  sqlite::Database db(dir.path("empty.db"));
  EXPECT_EQ(db.userVersion(), 0);
  EXPECT_EQ(storage::migrate(db), storage::latestSchemaVersion());
  EXPECT_EQ(db.userVersion(), storage::latestSchemaVersion());
  EXPECT_EQ(storage::migrate(db), 0);
  sqlite::Statement s = db.prepare(
      "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN "
      "('projects', 'runs', 'races', 'occurrences', 'reviews', 'uploads', "
      "'api_tokens', 'race_branches', 'run_races')");
  s.step();
  EXPECT_EQ(s.integer(0), 9);
}

TEST(Migrations, FileFromANewerVersionIsRefused) {
  TempDir dir;
  {
    sqlite::Database db(dir.path("future.db"));
    db.setUserVersion(storage::latestSchemaVersion() + 1);
  }
  auto store = SqliteRaceStore::open(dir.path("future.db"));
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code, StatusCode::kFailedPrecondition);
  EXPECT_NE(store.status().message.find("newer"), std::string::npos);
}

TEST(Migrations, OutdatedFileIsRefusedWithoutMigrate) {
  TempDir dir;
  { sqlite::Database db(dir.path("old.db")); }
  SqliteStoreOptions options;
  options.migrate = false;
  auto store = SqliteRaceStore::open(dir.path("old.db"), options);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message.find("gpurace db migrate"),
            std::string::npos);
}

TEST(Migrations, ConnectionsUseWalAndForeignKeys) {
  TempDir dir;
  sqlite::Database db(dir.path("pragmas.db"));
  sqlite::Statement mode = db.prepare("PRAGMA journal_mode");
  mode.step();
  EXPECT_EQ(mode.text(0), "wal");
  sqlite::Statement fk = db.prepare("PRAGMA foreign_keys");
  fk.step();
  EXPECT_EQ(fk.integer(0), 1);
}

TEST(Migrations, NotADatabaseIsAClearError) {
  TempDir dir;
  std::string path = dir.path("notes.txt");
  FILE *f = fopen(path.c_str(), "w");
  fputs("this is not a database, just some text that is long enough", f);
  fclose(f);
  auto store = SqliteRaceStore::open(path);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message.find("not a database"), std::string::npos)
      << store.status().message;
}

} // namespace
} // namespace gpurace::testing
