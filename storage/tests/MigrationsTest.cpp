// Schema versions: an empty database migrates to the newest, a newer one
// is refused, re-opening applies nothing; on SQLite and on PostgreSQL.
#include "storage/Connect.h"
#include "storage/Migrations.h"
#include "storage/SqliteConnection.h"
#include "storage/tests/StoreTestSupport.h"

#include <thread>

namespace gpurace::testing {
namespace {

TEST(Migrations, EmptyFileReachesTheLatestVersion) {
  TempDir dir;
  sql::SqliteConnection db(dir.path("empty.db"));
  EXPECT_EQ(db.schemaVersion(), 0);
  EXPECT_EQ(storage::migrate(db), storage::latestSchemaVersion());
  EXPECT_EQ(db.schemaVersion(), storage::latestSchemaVersion());
  EXPECT_EQ(storage::migrate(db), 0);
  sql::Statement s = db.prepare(
      "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN "
      "('projects', 'runs', 'races', 'occurrences', 'reviews', 'uploads', "
      "'api_tokens', 'race_branches', 'run_races')");
  s.step();
  EXPECT_EQ(s.integer(0), 9);
}

TEST(Migrations, FileFromANewerVersionIsRefused) {
  TempDir dir;
  {
    sql::SqliteConnection db(dir.path("future.db"));
    db.setSchemaVersion(storage::latestSchemaVersion() + 1);
  }
  auto store = SqlRaceStore::open(dir.path("future.db"));
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code, StatusCode::kFailedPrecondition);
  EXPECT_NE(store.status().message.find("newer"), std::string::npos);
}

TEST(Migrations, OutdatedFileIsRefusedWithoutMigrate) {
  TempDir dir;
  { sql::SqliteConnection db(dir.path("old.db")); }
  StoreOptions options;
  options.migrate = false;
  auto store = SqlRaceStore::open(dir.path("old.db"), options);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message.find("gpurace db migrate"),
            std::string::npos);
}

TEST(Migrations, ConnectionsUseWalAndForeignKeys) {
  TempDir dir;
  sql::SqliteConnection db(dir.path("pragmas.db"));
  sql::Statement mode = db.prepare("PRAGMA journal_mode");
  mode.step();
  EXPECT_EQ(mode.text(0), "wal");
  sql::Statement fk = db.prepare("PRAGMA foreign_keys");
  fk.step();
  EXPECT_EQ(fk.integer(0), 1);
}

TEST(Migrations, NotADatabaseIsAClearError) {
  TempDir dir;
  std::string path = dir.path("notes.txt");
  FILE *f = fopen(path.c_str(), "w");
  fputs("this is not a database, just some text that is long enough", f);
  fclose(f);
  auto store = SqlRaceStore::open(path);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message.find("not a database"), std::string::npos)
      << store.status().message;
}

using PostgresMigrations = PostgresTest;

TEST_F(PostgresMigrations, EmptyDatabaseReachesTheLatestVersion) {
  auto db = sql::connect(cluster->createDatabase());
  EXPECT_EQ(db->dialect(), sql::Dialect::kPostgres);
  EXPECT_EQ(db->schemaVersion(), 0);
  EXPECT_EQ(storage::migrate(*db), storage::latestSchemaVersion());
  EXPECT_EQ(db->schemaVersion(), storage::latestSchemaVersion());
  EXPECT_EQ(storage::migrate(*db), 0);
  sql::Statement s = db->prepare(
      "SELECT COUNT(*) FROM information_schema.tables WHERE table_name IN "
      "('projects', 'runs', 'races', 'occurrences', 'reviews', 'uploads', "
      "'api_tokens', 'race_branches', 'run_races')");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.integer(0), 9);
  // Times are microseconds: 64-bit columns, not PostgreSQL's 32-bit INTEGER.
  sql::Statement type = db->prepare(
      "SELECT data_type FROM information_schema.columns WHERE table_name = "
      "'runs' AND column_name = 'uploaded_at'");
  ASSERT_TRUE(type.step());
  EXPECT_EQ(type.text(0), "bigint");
}

TEST_F(PostgresMigrations, ServersStartingTogetherMigrateOnce) {
  std::string url = cluster->createDatabase();
  std::vector<std::thread> servers;
  std::vector<Status> opened(4);
  std::vector<int> versions(4);
  for (size_t i = 0; i < opened.size(); ++i)
    servers.emplace_back([&, i] {
      auto store = SqlRaceStore::open(url);
      opened[i] = store.status();
      if (store.ok())
        versions[i] = (*store)->schemaVersion().value();
    });
  for (std::thread &t : servers)
    t.join();
  for (size_t i = 0; i < opened.size(); ++i) {
    EXPECT_TRUE(opened[i].ok()) << opened[i].message;
    EXPECT_EQ(versions[i], storage::latestSchemaVersion());
  }
}

TEST_F(PostgresMigrations, DatabaseFromANewerVersionIsRefused) {
  std::string url = cluster->createDatabase();
  sql::connect(url)->setSchemaVersion(storage::latestSchemaVersion() + 1);
  auto store = SqlRaceStore::open(url);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code, StatusCode::kFailedPrecondition);
  EXPECT_NE(store.status().message.find("newer"), std::string::npos);
}

TEST(PostgresConnection, UnreachableServerIsUnavailableAndHidesThePassword) {
  auto store = SqlRaceStore::open(
      "postgresql://ci:s3cret@/races?host=/nonexistent-gpurace-socket-dir");
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code, StatusCode::kUnavailable);
  EXPECT_NE(store.status().message.find("postgresql://ci:***@"),
            std::string::npos)
      << store.status().message;
  EXPECT_EQ(store.status().message.find("s3cret"), std::string::npos);
}

// Migration 5 (the count index, PostgreSQL only) on a database written at
// version 4: the races and their counts stay, the count sort reads them in
// order, and only PostgreSQL gets the index; SQLite records the version.
class CountIndexMigration : public ::testing::TestWithParam<Backend> {};

TEST_P(CountIndexMigration, Version4DatabaseKeepsItsDataAndGetsTheIndex) {
  TempDir dir;
  auto db = freshDatabase(GetParam(), dir);
  if (!db)
    GTEST_SKIP() << "PostgreSQL tests skipped: "
                 << PostgresCluster::unavailableReason();
  {
    auto connection = sql::connect(*db);
    for (int version = 1; version <= 4; ++version) {
      connection->exec(storage::migrationText(version, connection->dialect()));
      connection->setSchemaVersion(version);
    }
  }
  {
    // Races and counts as version 4 writes them: the store runs on the
    // version 4 schema, marked as the latest so that it opens as it is.
    auto connection = sql::connect(*db);
    connection->setSchemaVersion(storage::latestSchemaVersion());
    auto store = openStore(*db);
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->reportRuntime(
                         runtimeReport("r1", {"v1:aa", "v1:bb", "v1:aa"}))
                    .ok());
    ASSERT_TRUE(
        store->reportRuntime(runtimeReport("r2", {"v1:aa", "v1:cc"})).ok());
    store.reset();
    connection->setSchemaVersion(4);
  }
  auto store = openStore(*db);
  ASSERT_TRUE(store);
  EXPECT_EQ(store->schemaVersion().value(), storage::latestSchemaVersion());
  v1::ListRacesRequest request;
  request.mutable_filter()->set_project("demo");
  request.set_order_by("-occurrences");
  auto page = store->listRaces(request);
  ASSERT_TRUE(page.ok()) << page.status().message;
  ASSERT_EQ(page->races_size(), 3);
  EXPECT_EQ(page->races(0).candidate().fingerprint(), "v1:aa");
  EXPECT_EQ(page->races(0).occurrence_count(), 3u * 3u);
  EXPECT_EQ(page->races(1).occurrence_count(), 3u);
  EXPECT_EQ(page->races(2).occurrence_count(), 3u);

  auto connection = sql::connect(*db);
  sql::Statement index = connection->prepare(
      GetParam() == Backend::kPostgres
          ? "SELECT COUNT(*) FROM pg_indexes WHERE indexname = "
            "'race_counters_by_count'"
          : "SELECT COUNT(*) FROM sqlite_master WHERE name = "
            "'race_counters_by_count'");
  ASSERT_TRUE(index.step());
  EXPECT_EQ(index.integer(0), GetParam() == Backend::kPostgres ? 1 : 0);

  // Migration 6: on PostgreSQL, occurrences and run rows keep no foreign
  // keys; SQLite keeps its.
  sql::Statement keys = connection->prepare(
      GetParam() == Backend::kPostgres
          ? "SELECT COUNT(*) FROM pg_constraint WHERE contype = 'f' AND "
            "conrelid IN ('occurrences'::regclass, 'run_races'::regclass)"
          : "SELECT (SELECT COUNT(*) FROM pragma_foreign_key_list("
            "'occurrences')) + (SELECT COUNT(*) FROM "
            "pragma_foreign_key_list('run_races'))");
  ASSERT_TRUE(keys.step());
  EXPECT_EQ(keys.integer(0), GetParam() == Backend::kPostgres ? 0 : 4);
}

INSTANTIATE_BACKEND_TESTS(CountIndexMigration);

} // namespace
} // namespace gpurace::testing
