// Upgrading a database that holds data: a store at the previous schema
// version, written as that version's gpurace wrote it, opens at the newest
// version with every race, count, review and run intact, and goes on
// counting from where it was; on SQLite and on PostgreSQL.
#include "storage/Connect.h"
#include "storage/Migrations.h"
#include "storage/tests/StoreTestSupport.h"

namespace gpurace::testing {
namespace {

constexpr int kPreviousVersion = 3;
constexpr int64_t kSecond = 1000000;

// A race as schema version 3 keeps it: counters in the race's own row.
struct OldRace {
  std::string fingerprint;
  double score;
  int64_t last_seen;
  int64_t occurrences;
};

class MigrationUpgradeTest : public ::testing::TestWithParam<Backend> {
protected:
  void SetUp() override {
    auto fresh = freshDatabase(GetParam(), dir);
    if (!fresh)
      GTEST_SKIP() << "PostgreSQL tests skipped: "
                   << PostgresCluster::unavailableReason();
    db = *fresh;
    auto connection = sql::connect(db);
    for (int version = 1; version <= kPreviousVersion; ++version) {
      connection->exec(
          storage::migrationText(version, connection->dialect()));
      connection->setSchemaVersion(version);
    }
    writeVersion3Data(*connection);
  }

  void writeVersion3Data(sql::Connection &c) {
    c.prepare("INSERT INTO projects(name) VALUES ('demo')").run();
    v1::RunMetadata metadata;
    metadata.set_project("demo");
    metadata.set_branch("main");
    metadata.set_commit("c1");
    c.prepare("INSERT INTO runs(project_id, kind, commit_sha, branch, "
              "metadata, uploaded_at, full_analysis, tool_version, "
              "races_added, races_seen) "
              "VALUES (1, 'analysis', 'c1', 'main', ?, ?, 1, 'v0', 2, 2)")
        .bindBlob(1, metadata.SerializeAsString())
        .bind(2, 2 * kSecond)
        .run();
    for (const OldRace &race : races) {
      v1::RaceCandidate stored = candidate(race.fingerprint);
      stored.set_score(race.score);
      c.prepare("INSERT INTO races(project_id, fingerprint, candidate, "
                "status, race_class, kernel, first_file, second_file, score, "
                "detection_state, first_seen, last_seen, occurrence_count) "
                "VALUES (1, ?, ?, ?, ?, 'reduce', 'src/reduce.cu', "
                "'src/reduce.cu', ?, ?, ?, ?, ?)")
          .bind(1, race.fingerprint)
          .bindBlob(2, stored.SerializeAsString())
          .bind(3, static_cast<int64_t>(v1::RACE_STATUS_POTENTIAL))
          .bind(4, static_cast<int64_t>(stored.race_class()))
          .bind(5, race.score)
          .bind(6, static_cast<int64_t>(v1::DETECTION_STATE_NEW))
          .bind(7, 1 * kSecond)
          .bind(8, race.last_seen)
          .bind(9, race.occurrences)
          .run();
    }
    c.exec("INSERT INTO race_branches(race_id, branch, state) "
           "SELECT id, 'main', 1 FROM races");
    c.exec("INSERT INTO run_races(run_id, race_id, state) "
           "SELECT 1, id, 1 FROM races");
    c.exec("UPDATE races SET review_state = 3, review_comment = 'n <= 32', "
           "review_author = 'ana', review_updated_at = 3000000 "
           "WHERE fingerprint = 'v1:bb'");
  }

  std::unique_ptr<SqlRaceStore> upgraded() {
    auto store = SqlRaceStore::open(db);
    EXPECT_TRUE(store.ok()) << store.status().message;
    return store.ok() ? std::move(store.value()) : nullptr;
  }

  std::vector<std::string> order(SqlRaceStore &store,
                                 const std::string &order_by) {
    v1::ListRacesRequest request;
    request.mutable_filter()->set_project("demo");
    request.set_order_by(order_by);
    auto list = store.listRaces(request);
    EXPECT_TRUE(list.ok()) << list.status().message;
    std::vector<std::string> fingerprints;
    if (list.ok())
      for (const v1::Race &race : list->races())
        fingerprints.push_back(race.fingerprint());
    return fingerprints;
  }

  // aa: seen often, long ago; bb: seen twice, lately, reviewed.
  const std::vector<OldRace> races = {{"v1:aa", 0.9, 5 * kSecond, 7},
                                      {"v1:bb", 0.4, 9 * kSecond, 2}};
  TempDir dir;
  std::string db;
};

TEST_P(MigrationUpgradeTest, RacesKeepTheirCountsAndReviews) {
  auto store = upgraded();
  ASSERT_TRUE(store);
  EXPECT_EQ(store->schemaVersion().value(), storage::latestSchemaVersion());
  auto all = racesByFingerprint(*store, "main");
  ASSERT_EQ(all.size(), 2u);
  for (const OldRace &old : races) {
    const v1::Race &race = all[old.fingerprint];
    EXPECT_EQ(race.occurrence_count(), static_cast<uint64_t>(old.occurrences))
        << old.fingerprint;
    EXPECT_EQ(race.last_seen().seconds(), old.last_seen / kSecond);
    EXPECT_EQ(race.first_seen().seconds(), 1);
    EXPECT_DOUBLE_EQ(race.candidate().score(), old.score);
    EXPECT_EQ(race.candidate().kernel(), "reduce");
    EXPECT_EQ(race.detection_state(), v1::DETECTION_STATE_NEW);
  }
  const v1::Review &review = all["v1:bb"].review();
  EXPECT_EQ(review.state(), v1::REVIEW_STATE_FALSE_POSITIVE);
  EXPECT_EQ(review.comment(), "n <= 32");
  EXPECT_EQ(review.author(), "ana");
  v1::GetRaceHistoryRequest history;
  history.set_id(all["v1:aa"].id());
  auto entries = store->getRaceHistory(history);
  ASSERT_TRUE(entries.ok()) << entries.status().message;
  ASSERT_EQ(entries->entries_size(), 1);
  EXPECT_EQ(entries->entries(0).run().run_id(), "run-1");
}

TEST_P(MigrationUpgradeTest, ListsSortByTheMigratedCounters) {
  auto store = upgraded();
  ASSERT_TRUE(store);
  EXPECT_EQ(order(*store, "-occurrences"),
            (std::vector<std::string>{"v1:aa", "v1:bb"}));
  EXPECT_EQ(order(*store, "occurrences"),
            (std::vector<std::string>{"v1:bb", "v1:aa"}));
  EXPECT_EQ(order(*store, "-last_seen"),
            (std::vector<std::string>{"v1:bb", "v1:aa"}));
  EXPECT_EQ(order(*store, "-score"),
            (std::vector<std::string>{"v1:aa", "v1:bb"}));
}

TEST_P(MigrationUpgradeTest, CountingGoesOnFromTheMigratedValues) {
  auto store = upgraded();
  ASSERT_TRUE(store);
  // Three observations of aa (count 3 each, see runtimeReport) and a new
  // race cc.
  auto stored = store->reportRuntime(
      runtimeReport("r1", {"v1:aa", "v1:cc"}));
  ASSERT_TRUE(stored.ok()) << stored.status().message;
  auto all = racesByFingerprint(*store, "main");
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all["v1:aa"].occurrence_count(), 7u + 3u);
  EXPECT_GT(all["v1:aa"].last_seen().seconds(), 9);
  EXPECT_EQ(all["v1:aa"].status(), v1::RACE_STATUS_CONFIRMED);
  EXPECT_EQ(all["v1:bb"].occurrence_count(), 2u);
  EXPECT_EQ(all["v1:cc"].occurrence_count(), 3u);
  EXPECT_EQ(order(*store, "-occurrences").front(), "v1:aa");
}

TEST_P(MigrationUpgradeTest, PruningRemovesTheCountersOfDeletedRaces) {
  auto store = upgraded();
  ASSERT_TRUE(store);
  // A newer run of the same kind on main makes run-1 the one to prune,
  // and with it the races only run-1 saw (a partial analysis does not
  // resolve them, so run-2 does not name them).
  auto uploaded = store->uploadAnalysis(analysisUpload(
      {candidate("v1:dd")}, "c2", "main", "demo", /*full=*/false));
  ASSERT_TRUE(uploaded.ok()) << uploaded.status().message;
  auto pruned = store->prune(1);
  ASSERT_TRUE(pruned.ok()) << pruned.status().message;
  EXPECT_EQ(pruned->races_deleted, 2u);
  auto counters = sql::connect(db);
  sql::Statement left = counters->prepare("SELECT COUNT(*) FROM race_counters");
  ASSERT_TRUE(left.step());
  EXPECT_EQ(left.integer(0), 1);
}

INSTANTIATE_BACKEND_TESTS(MigrationUpgradeTest);

} // namespace
} // namespace gpurace::testing
