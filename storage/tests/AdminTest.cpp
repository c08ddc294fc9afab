// Triage, tokens, retention and backups.
#include "storage/Connect.h"
#include "storage/TokenHash.h"
#include "storage/tests/StoreTestSupport.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace gpurace::testing {
namespace {

class AdminTest : public StoreTest {
protected:
};

TEST_P(AdminTest, ReviewIsSetAndKeptInHistory) {
  ASSERT_TRUE(store->uploadAnalysis(analysisUpload({candidate("v1:aa")}, "c1")).ok());
  int64_t id = racesByFingerprint(*store, "main")["v1:aa"].id();
  v1::SetReviewRequest r;
  r.set_race_id(id);
  r.set_state(v1::REVIEW_STATE_CONFIRMED);
  r.set_author("ana");
  ASSERT_TRUE(store->setReview(r).ok());
  r.set_state(v1::REVIEW_STATE_FALSE_POSITIVE);
  r.set_comment("guarded by the host's n < blockDim check");
  auto race = store->setReview(r);
  ASSERT_TRUE(race.ok()) << race.status().message;
  EXPECT_EQ(race->review().state(), v1::REVIEW_STATE_FALSE_POSITIVE);
  EXPECT_EQ(race->review().comment(), "guarded by the host's n < blockDim check");
  EXPECT_EQ(race->review().author(), "ana");

  v1::GetRaceHistoryRequest h;
  h.set_id(id);
  auto history = store->getRaceHistory(h);
  ASSERT_EQ(history->reviews_size(), 2);
  EXPECT_EQ(history->reviews(0).state(), v1::REVIEW_STATE_CONFIRMED);

  // A review survives the next upload.
  store->uploadAnalysis(analysisUpload({candidate("v1:aa")}, "c2"));
  EXPECT_EQ(racesByFingerprint(*store, "main")["v1:aa"].review().state(),
            v1::REVIEW_STATE_FALSE_POSITIVE);
}

TEST_P(AdminTest, ReviewOfUnknownRaceOrStateFails) {
  v1::SetReviewRequest r;
  r.set_race_id(42);
  r.set_state(v1::REVIEW_STATE_CONFIRMED);
  EXPECT_EQ(store->setReview(r).status().code, StatusCode::kNotFound);
  r.set_state(v1::REVIEW_STATE_UNSPECIFIED);
  auto bad = store->setReview(r);
  EXPECT_EQ(bad.status().code, StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message.find("state"), std::string::npos);
}

TEST_P(AdminTest, TokensAreStoredHashedAndRevocable) {
  EXPECT_FALSE(store->hasLiveTokens().value());
  auto created = store->createToken("ci", "demo", Role::kStore);
  ASSERT_TRUE(created.ok());
  const std::string secret = created->secret;
  EXPECT_EQ(secret.rfind("grt_", 0), 0u);
  EXPECT_TRUE(store->hasLiveTokens().value());

  auto found = store->findToken(secret);
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ((*found)->role, Role::kStore);
  EXPECT_EQ((*found)->project, "demo");
  EXPECT_FALSE(store->findToken(secret + "x")->has_value());

  // Only the secret's hash is stored.
  store.reset();
  {
    auto connection = sql::connect(db);
    sql::Statement row = connection->prepare(
        "SELECT name, project, token_hash FROM api_tokens");
    ASSERT_TRUE(row.step());
    EXPECT_EQ(row.text(2), sha256Hex(secret));
    for (int column : {0, 1, 2})
      EXPECT_EQ(row.text(column).find(secret), std::string::npos);
  }
  if (GetParam() == Backend::kSqlite) {
    std::ifstream in(dir.path("races.db"), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    std::ifstream wal(dir.path("races.db-wal"), std::ios::binary);
    bytes << wal.rdbuf();
    EXPECT_EQ(bytes.str().find(secret), std::string::npos);
  }

  store = openStore(db);
  ASSERT_TRUE(store->revokeToken(created->info.id).ok());
  EXPECT_FALSE(store->findToken(secret)->has_value());
  EXPECT_EQ(store->revokeToken(created->info.id).code, StatusCode::kNotFound);
  auto tokens = store->listTokens();
  ASSERT_EQ(tokens->size(), 1u);
  EXPECT_TRUE(tokens->front().revoked);
}

TEST(TokenHash, MatchesTheSha256TestVector) {
  EXPECT_EQ(sha256Hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_P(AdminTest, PruneKeepsTheNewestRunsPerBranch) {
  for (int i = 0; i < 4; ++i)
    store->uploadAnalysis(analysisUpload(
        {candidate("v1:0" + std::to_string(i))}, "c" + std::to_string(i),
        "main", "demo", /*full=*/false));
  store->uploadAnalysis(analysisUpload({candidate("v1:ff")}, "f1", "feature"));
  auto pruned = store->prune(2);
  ASSERT_TRUE(pruned.ok()) << pruned.status().message;
  EXPECT_EQ(pruned->runs_deleted, 2u);
  EXPECT_EQ(pruned->races_deleted, 2u);
  auto runs = store->listRuns({});
  EXPECT_EQ(runs->runs_size(), 3);
  auto races = racesByFingerprint(*store, "main");
  EXPECT_EQ(races.size(), 2u);
  EXPECT_TRUE(races.count("v1:03"));
  EXPECT_EQ(racesByFingerprint(*store, "feature").size(), 1u);
  EXPECT_EQ(store->prune(0).status().code, StatusCode::kInvalidArgument);
}

// Pruning deletes what a cascade would (PostgreSQL keeps no foreign keys on
// occurrences and run rows): no row is left of a deleted run or race.
TEST_P(AdminTest, PruneLeavesNoRowOfADeletedRunOrRace) {
  for (int i = 0; i < 3; ++i) {
    std::string n = std::to_string(i);
    ASSERT_TRUE(store->reportRuntime(runtimeReport("u" + n, {"v1:r" + n, "v1:all"})).ok());
    ASSERT_TRUE(store->uploadAnalysis(analysisUpload({candidate("v1:a" + n)}, "c" + n, "main", "demo", /*full=*/false)).ok());
  }
  auto pruned = store->prune(1);
  ASSERT_TRUE(pruned.ok()) << pruned.status().message;
  EXPECT_EQ(pruned->runs_deleted, 4u);
  EXPECT_EQ(pruned->races_deleted, 4u);
  store.reset();
  auto connection = sql::connect(db);
  auto count = [&](const std::string &query) {
    sql::Statement s = connection->prepare(query);
    EXPECT_TRUE(s.step());
    return s.integer(0);
  };
  for (const char *table : {"occurrences", "run_races"}) {
    SCOPED_TRACE(table);
    EXPECT_EQ(count(std::string("SELECT COUNT(*) FROM ") + table +
                    " t WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = "
                    "t.run_id) OR NOT EXISTS (SELECT 1 FROM races x WHERE "
                    "x.id = t.race_id)"),
              0);
  }
  // The kept runs' occurrences stay: v1:r2 and v1:all of the runtime run,
  // v1:a2 of the analysis.
  EXPECT_EQ(count("SELECT COUNT(*) FROM occurrences"), 3);
  EXPECT_EQ(count("SELECT COUNT(*) FROM races"), 3);
}

TEST_P(AdminTest, BackupIsAUsableCopy) {
  store->uploadAnalysis(analysisUpload({candidate("v1:aa")}, "c1"));
  std::string backup = dir.path("copy.db");
  auto backed_up = store->backup(backup);
  ASSERT_TRUE(backed_up.ok()) << backed_up.message;
  std::string copy_db = backup;
  if (GetParam() == Backend::kPostgres) {
    // pg_dump's custom format, restored as its manual says.
    copy_db = PostgresCluster::instance()->createDatabase();
    std::string restore =
        "pg_restore --no-owner --dbname='" + copy_db + "' '" + backup + "'";
    ASSERT_EQ(std::system(restore.c_str()), 0) << restore;
  }
  auto copy = openStore(copy_db);
  EXPECT_EQ(racesByFingerprint(*copy, "main").size(), 1u);
}

INSTANTIATE_BACKEND_TESTS(AdminTest);

} // namespace
} // namespace gpurace::testing
