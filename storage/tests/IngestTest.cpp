// Storing uploads: deduplication, the lifecycle across runs, idempotency,
// runtime confirmation, and bad input that stores nothing.
#include "storage/Connect.h"
#include "storage/tests/StoreTestSupport.h"

#include <atomic>
#include <cmath>
#include <thread>

namespace gpurace::testing {
namespace {

class IngestTest : public StoreTest {
protected:

  v1::UploadAnalysisResponse upload(const v1::UploadAnalysisRequest &r) {
    auto result = store->uploadAnalysis(r);
    EXPECT_TRUE(result.ok()) << result.status().message;
    return result.ok() ? result.value() : v1::UploadAnalysisResponse();
  }
};

TEST_P(IngestTest, SameFingerprintIsOneRace) {
  upload(analysisUpload({candidate("v1:aa"), candidate("v1:aa")}, "c1"));
  upload(analysisUpload({candidate("v1:aa")}, "c2"));
  auto races = racesByFingerprint(*store, "main");
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races["v1:aa"].occurrence_count(), 2u);
}

TEST_P(IngestTest, LifecycleAcrossFullAnalyses) {
  auto first = upload(analysisUpload({candidate("v1:aa"), candidate("v1:bb")}, "c1"));
  EXPECT_EQ(first.races_new(), 2u);
  auto second = upload(analysisUpload({candidate("v1:aa")}, "c2"));
  EXPECT_EQ(second.races_unresolved(), 1u);
  EXPECT_EQ(second.races_resolved(), 1u);
  auto races = racesByFingerprint(*store, "main");
  EXPECT_EQ(races["v1:aa"].detection_state(), v1::DETECTION_STATE_UNRESOLVED);
  EXPECT_EQ(races["v1:bb"].detection_state(), v1::DETECTION_STATE_RESOLVED);

  auto third = upload(analysisUpload({candidate("v1:aa"), candidate("v1:bb")}, "c3"));
  EXPECT_EQ(third.races_reopened(), 1u);
  EXPECT_EQ(racesByFingerprint(*store, "main")["v1:bb"].detection_state(),
            v1::DETECTION_STATE_REOPENED);
}

TEST_P(IngestTest, PartialAnalysisResolvesNothing) {
  upload(analysisUpload({candidate("v1:aa"), candidate("v1:bb")}, "c1"));
  auto partial = upload(analysisUpload({candidate("v1:aa")}, "c2", "main",
                                       "demo", /*full=*/false));
  EXPECT_EQ(partial.races_resolved(), 0u);
  EXPECT_EQ(racesByFingerprint(*store, "main")["v1:bb"].detection_state(),
            v1::DETECTION_STATE_NEW);
}

TEST_P(IngestTest, DetectionStateIsPerBranch) {
  upload(analysisUpload({candidate("v1:aa")}, "c1", "main"));
  upload(analysisUpload({}, "c2", "feature"));
  upload(analysisUpload({candidate("v1:aa")}, "c3", "feature"));
  EXPECT_EQ(racesByFingerprint(*store, "main")["v1:aa"].detection_state(),
            v1::DETECTION_STATE_NEW);
  EXPECT_EQ(racesByFingerprint(*store, "feature")["v1:aa"].detection_state(),
            v1::DETECTION_STATE_NEW);
  upload(analysisUpload({}, "c4", "feature"));
  EXPECT_EQ(racesByFingerprint(*store, "feature")["v1:aa"].detection_state(),
            v1::DETECTION_STATE_RESOLVED);
  EXPECT_EQ(racesByFingerprint(*store, "main")["v1:aa"].detection_state(),
            v1::DETECTION_STATE_NEW);
}

TEST_P(IngestTest, RetriedUploadStoresNothingTwice) {
  auto request = analysisUpload({candidate("v1:aa")}, "c1");
  request.set_upload_id("ci-job-17");
  auto first = upload(request);
  auto retry = upload(request);
  EXPECT_FALSE(first.duplicate());
  EXPECT_TRUE(retry.duplicate());
  EXPECT_EQ(retry.run_id(), first.run_id());
  EXPECT_EQ(retry.races_new(), 1u);
  EXPECT_EQ(racesByFingerprint(*store, "main")["v1:aa"].occurrence_count(), 1u);
  auto runs = store->listRuns({});
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ(runs->runs_size(), 1);
}

TEST_P(IngestTest, RuntimeReportConfirmsTheAnalysisRace) {
  upload(analysisUpload({candidate("v1:aa")}, "c1"));
  auto result = store->reportRuntime(runtimeReport("agent-1", {"v1:aa"}));
  ASSERT_TRUE(result.ok()) << result.status().message;
  EXPECT_EQ(result->races_confirmed, 1u);
  auto races = racesByFingerprint(*store, "main");
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races["v1:aa"].status(), v1::RACE_STATUS_CONFIRMED);
  EXPECT_EQ(races["v1:aa"].candidate().status(), v1::RACE_STATUS_CONFIRMED);
  EXPECT_EQ(races["v1:aa"].occurrence_count(), 4u); // 1 analysis + 3 runtime

  // A later analysis keeps the confirmation.
  upload(analysisUpload({candidate("v1:aa")}, "c2"));
  EXPECT_EQ(racesByFingerprint(*store, "main")["v1:aa"].status(),
            v1::RACE_STATUS_CONFIRMED);
}

TEST_P(IngestTest, RuntimeOnlyRaceIsStoredConfirmed) {
  ASSERT_TRUE(store->reportRuntime(runtimeReport("agent-1", {"v1:cc"})).ok());
  auto retry = store->reportRuntime(runtimeReport("agent-1", {"v1:cc"}));
  ASSERT_TRUE(retry.ok());
  EXPECT_TRUE(retry->duplicate);
  auto races = racesByFingerprint(*store, "main");
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races["v1:cc"].status(), v1::RACE_STATUS_CONFIRMED);
  EXPECT_EQ(races["v1:cc"].occurrence_count(), 3u);
  EXPECT_EQ(races["v1:cc"].detection_state(), v1::DETECTION_STATE_NEW);
}

// More observations than one statement's rows, races seen several times in
// one report, races the analysis found (one resolved on the branch since)
// and races only the run time saw.
TEST_P(IngestTest, LargeRuntimeReportCountsEachRaceAndObservation) {
  upload(analysisUpload({candidate("v1:p0"), candidate("v1:p1")}, "c1"));
  upload(analysisUpload({candidate("v1:p0")}, "c2")); // resolves v1:p1
  std::vector<std::string> fps;
  for (int i = 0; i < 150; ++i)
    fps.push_back(i < 4 ? "v1:p" + std::to_string(i % 2)
                        : "v1:r" + std::to_string(i % 70));
  auto result = store->reportRuntime(runtimeReport("agent-big", fps));
  ASSERT_TRUE(result.ok()) << result.status().message;
  EXPECT_EQ(result->observations, 150u);
  // The 2 analysis races and the 70 runtime-only ones, v1:r0 to v1:r69.
  EXPECT_EQ(result->races_confirmed, 72u);

  auto races = racesByFingerprint(*store, "main");
  ASSERT_EQ(races.size(), 72u);
  // runtimeReport() gives each observation a count of 3.
  EXPECT_EQ(races["v1:p0"].occurrence_count(), 1u + 1u + 2u * 3u);
  EXPECT_EQ(races["v1:p0"].status(), v1::RACE_STATUS_CONFIRMED);
  EXPECT_EQ(races["v1:p1"].detection_state(), v1::DETECTION_STATE_REOPENED);
  EXPECT_EQ(races["v1:r5"].occurrence_count(), 3u * 3u);  // i = 5, 75, 145
  EXPECT_EQ(races["v1:r69"].occurrence_count(), 2u * 3u); // i = 69, 139
  EXPECT_EQ(races["v1:r0"].occurrence_count(), 2u * 3u);  // i = 70, 140

  v1::GetRunRequest which;
  which.set_run_id(result->run_id);
  auto run = store->getRun(which);
  ASSERT_TRUE(run.ok()) << run.status().message;
  EXPECT_EQ(run->run().races_seen(), 72u);
  // Added: the 70 runtime-only races and the reopened one.
  EXPECT_EQ(run->run().races_added(), 71u);
}

// A batch is stored as its reports would be one after the other: races
// shared by its reports and with earlier runs, two branches and two
// projects, a race the analysis found and then resolved, an upload id sent
// before the batch and one sent twice in it.
TEST_P(IngestTest, BatchStoresWhatItsReportsOneByOneStore) {
  TempDir other_dir;
  auto other_db = freshDatabase(GetParam(), other_dir);
  ASSERT_TRUE(other_db);
  auto one_by_one = openStore(*other_db);
  ASSERT_TRUE(one_by_one);
  for (SqlRaceStore *s : {store.get(), one_by_one.get()}) {
    ASSERT_TRUE(s->uploadAnalysis(analysisUpload(
                                      {candidate("v1:p0"), candidate("v1:p1")},
                                      "c1"))
                    .ok());
    // Resolves v1:p1 on main.
    ASSERT_TRUE(s->uploadAnalysis(analysisUpload({candidate("v1:p0")}, "c2")).ok());
    ASSERT_TRUE(s->reportRuntime(runtimeReport("earlier", {"v1:r9"})).ok());
  }
  const std::vector<v1::ReportRuntimeRequest> batch = {
      runtimeReport("a", {"v1:p0", "v1:r1", "v1:r2", "v1:r1"}),
      runtimeReport("b", {"v1:r1", "v1:p1", "v1:r3"}, "dev"),
      runtimeReport("earlier", {"v1:r9"}),
      runtimeReport("c", {"v1:p1", "v1:r2", "v1:r4"}),
      runtimeReport("a", {"v1:p0", "v1:r1", "v1:r2", "v1:r1"}),
      runtimeReport("d", {"v1:r5", "v1:r1"}, "main", "other"),
      runtimeReport("e", {"v1:r3", "v1:p1", "v1:r9"}, "dev"),
  };
  auto batched = store->reportRuntimeBatch(batch);
  ASSERT_TRUE(batched.ok()) << batched.status().message;
  ASSERT_EQ(batched->size(), batch.size());
  for (size_t i = 0; i < batch.size(); ++i) {
    auto single = one_by_one->reportRuntime(batch[i]);
    ASSERT_TRUE(single.ok()) << single.status().message;
    const RuntimeIngestResult &b = (*batched)[i];
    EXPECT_EQ(b.run_id, single->run_id) << i;
    EXPECT_EQ(b.duplicate, single->duplicate) << i;
    EXPECT_EQ(b.races_confirmed, single->races_confirmed) << i;
    EXPECT_EQ(b.observations, single->observations) << i;
  }
  EXPECT_TRUE((*batched)[2].duplicate);
  EXPECT_TRUE((*batched)[4].duplicate);
  EXPECT_EQ((*batched)[4].run_id, (*batched)[0].run_id);
  EXPECT_EQ((*batched)[0].races_confirmed, 3u); // p0, r1, r2

  for (const char *branch : {"main", "dev"}) {
    auto got = racesByFingerprint(*store, branch);
    auto want = racesByFingerprint(*one_by_one, branch);
    ASSERT_EQ(got.size(), want.size()) << branch;
    for (const auto &[fp, race] : want) {
      SCOPED_TRACE(std::string(branch) + " " + fp);
      EXPECT_EQ(got[fp].status(), race.status());
      EXPECT_EQ(got[fp].detection_state(), race.detection_state());
      EXPECT_EQ(got[fp].occurrence_count(), race.occurrence_count());
      EXPECT_EQ(got[fp].candidate().SerializeAsString(),
                race.candidate().SerializeAsString());
    }
  }
  auto main = racesByFingerprint(*store, "main");
  EXPECT_EQ(main["v1:p1"].detection_state(), v1::DETECTION_STATE_REOPENED);
  EXPECT_EQ(main["v1:r1"].occurrence_count(), 3u * 3u); // twice in a, once in b
  EXPECT_EQ(racesByFingerprint(*store, "dev")["v1:r3"].detection_state(),
            v1::DETECTION_STATE_NEW);

  v1::ListRunsRequest all;
  all.set_page_size(100);
  auto got = store->listRuns(all), want = one_by_one->listRuns(all);
  ASSERT_TRUE(got.ok() && want.ok());
  ASSERT_EQ(got->runs_size(), want->runs_size());
  for (int i = 0; i < want->runs_size(); ++i) {
    SCOPED_TRACE(want->runs(i).run_id());
    EXPECT_EQ(got->runs(i).run_id(), want->runs(i).run_id());
    EXPECT_EQ(got->runs(i).races_added(), want->runs(i).races_added());
    EXPECT_EQ(got->runs(i).races_seen(), want->runs(i).races_seen());
    EXPECT_EQ(got->runs(i).metadata().SerializeAsString(),
              want->runs(i).metadata().SerializeAsString());
  }
}

// Batches that arrive together from many streams may share a
// transaction; each is stored exactly once whichever way they are grouped:
// every report is a run, a repeated upload id (sent by two streams) is
// stored once and both get its run, and every observation counts.
TEST_P(IngestTest, ConcurrentBatchesAreEachStoredOnce) {
  constexpr int kStreams = 8, kBatches = 4, kReports = 3;
  std::vector<std::vector<std::vector<v1::ReportRuntimeRequest>>> sent(
      kStreams);
  for (int t = 0; t < kStreams; ++t)
    for (int b = 0; b < kBatches; ++b) {
      std::vector<v1::ReportRuntimeRequest> batch;
      for (int r = 0; r < kReports; ++r) {
        // Streams 0 and 1 send the same ids: one of each pair is a retry.
        std::string id = "s" + std::to_string(t < 2 ? 0 : t) + "-" +
                         std::to_string(b) + "-" + std::to_string(r);
        batch.push_back(runtimeReport(
            id, {"v1:r" + std::to_string((t + b) % 5), "v1:r9"},
            r % 2 ? "dev" : "main"));
      }
      sent[t].push_back(batch);
    }
  std::vector<std::vector<RuntimeIngestResult>> got(kStreams);
  std::atomic<int> ready{0};
  std::vector<std::thread> streams;
  for (int t = 0; t < kStreams; ++t)
    streams.emplace_back([&, t] {
      ++ready;
      while (ready < kStreams)
        std::this_thread::yield();
      for (const auto &batch : sent[t]) {
        auto stored = store->reportRuntimeBatch(batch);
        ASSERT_TRUE(stored.ok()) << stored.status().message;
        ASSERT_EQ(stored->size(), batch.size());
        got[t].insert(got[t].end(), stored->begin(), stored->end());
      }
    });
  for (auto &s : streams)
    s.join();

  std::map<std::string, std::set<std::string>> runs_of_id;
  std::set<std::string> runs;
  int duplicates = 0;
  for (int t = 0; t < kStreams; ++t) {
    ASSERT_EQ(got[t].size(), size_t{kBatches * kReports});
    for (size_t i = 0; i < got[t].size(); ++i) {
      const auto &report = sent[t][i / kReports][i % kReports];
      runs_of_id[report.upload_id()].insert(got[t][i].run_id);
      runs.insert(got[t][i].run_id);
      duplicates += got[t][i].duplicate;
      if (!got[t][i].duplicate)
        EXPECT_EQ(got[t][i].observations, 2u);
    }
  }
  // 7 streams' worth of distinct ids; stream 1 repeats stream 0's.
  EXPECT_EQ(runs.size(), size_t{7 * kBatches * kReports});
  EXPECT_EQ(duplicates, kBatches * kReports);
  for (const auto &[id, ids] : runs_of_id)
    EXPECT_EQ(ids.size(), 1u) << id;

  v1::ListRunsRequest all;
  all.set_page_size(1000);
  auto listed = store->listRuns(all);
  ASSERT_TRUE(listed.ok()) << listed.status().message;
  EXPECT_EQ(listed->runs_size(), 7 * kBatches * kReports);
  // v1:r9 is in every stored report, each observation counted 3 times.
  auto main = racesByFingerprint(*store, "main");
  auto dev = racesByFingerprint(*store, "dev");
  EXPECT_EQ(main["v1:r9"].occurrence_count(), 3u * 7 * kBatches * kReports);
  uint64_t counted = 0;
  for (int r = 0; r < 5; ++r) {
    std::string fp = "v1:r" + std::to_string(r);
    counted += main.count(fp) ? main[fp].occurrence_count()
                              : dev[fp].occurrence_count();
  }
  EXPECT_EQ(counted, 3u * 7 * kBatches * kReports);
}

// A batch that the database refuses (here a trigger refuses its run) is
// answered with the error and leaves nothing, and the batches written in
// the same transaction as it are written again without it.
TEST_P(IngestTest, RefusedBatchTakesNoOtherBatchWithIt) {
  {
    auto db = sql::connect(this->db);
    if (GetParam() == Backend::kSqlite)
      db->exec("CREATE TRIGGER refuse_boom BEFORE INSERT ON runs "
               "WHEN NEW.commit_sha = 'boom' "
               "BEGIN SELECT RAISE(ABORT, 'boom refused'); END");
    else
      db->exec("CREATE FUNCTION refuse_boom() RETURNS trigger "
               "LANGUAGE plpgsql AS $$ BEGIN IF NEW.commit_sha = 'boom' THEN "
               "RAISE EXCEPTION 'boom refused'; END IF; RETURN NEW; END $$; "
               "CREATE TRIGGER refuse_boom BEFORE INSERT ON runs FOR EACH ROW "
               "EXECUTE FUNCTION refuse_boom()");
  }
  constexpr int kStreams = 6, kBatches = 3;
  std::atomic<int> ready{0}, refused{0};
  std::vector<std::thread> streams;
  for (int t = 0; t < kStreams; ++t)
    streams.emplace_back([&, t] {
      ++ready;
      while (ready < kStreams)
        std::this_thread::yield();
      for (int b = 0; b < kBatches; ++b) {
        std::string id = std::to_string(t) + "-" + std::to_string(b);
        std::vector<v1::ReportRuntimeRequest> batch = {
            runtimeReport("ok-" + id, {"v1:r1", "v1:r2"}),
            runtimeReport("late-" + id, {"v1:r3"})};
        bool boom = t % 2 == 1 && b == 1;
        if (boom)
          batch[1].mutable_metadata()->set_commit("boom");
        auto stored = store->reportRuntimeBatch(batch);
        if (boom) {
          ++refused;
          ASSERT_FALSE(stored.ok());
          EXPECT_NE(stored.status().message.find("boom refused"),
                    std::string::npos)
              << stored.status().message;
        } else {
          ASSERT_TRUE(stored.ok()) << stored.status().message;
          EXPECT_FALSE((*stored)[0].duplicate);
        }
      }
    });
  for (auto &s : streams)
    s.join();
  EXPECT_EQ(refused, kStreams / 2);

  // Every batch but the refused ones, both of their reports.
  const uint32_t stored = 2 * (kStreams * kBatches - kStreams / 2);
  v1::ListRunsRequest all;
  all.set_page_size(1000);
  auto listed = store->listRuns(all);
  ASSERT_TRUE(listed.ok()) << listed.status().message;
  EXPECT_EQ(listed->runs_size(), static_cast<int>(stored));
  auto races = racesByFingerprint(*store, "main");
  EXPECT_EQ(races["v1:r1"].occurrence_count(), 3u * stored / 2);
  EXPECT_EQ(races["v1:r3"].occurrence_count(), 3u * stored / 2);
  // A refused report's id was not recorded: sent again, it is stored.
  auto again = store->reportRuntime(runtimeReport("ok-1-1", {"v1:r1"}));
  ASSERT_TRUE(again.ok()) << again.status().message;
  EXPECT_FALSE(again->duplicate);
}

// More findings than one statement's rows: races known from an earlier
// upload (their candidates replaced by the latest analysis), new ones, a
// fingerprint found at two launch sites and a below-threshold candidate.
TEST_P(IngestTest, LargeAnalysisUpdatesKnownRacesAndAddsNewOnes) {
  std::vector<v1::RaceCandidate> first;
  for (int i = 0; i < 100; ++i)
    first.push_back(candidate("v1:a" + std::to_string(i)));
  upload(analysisUpload(first, "c1"));
  std::vector<v1::RaceCandidate> second;
  for (int i = 30; i < 130; ++i)
    second.push_back(candidate("v1:a" + std::to_string(i), "k2", "src/k2.cu"));
  second.push_back(candidate("v1:a40", "other-site"));
  auto faint = candidate("v1:faint");
  faint.set_below_threshold(true);
  second.push_back(faint);
  auto response = upload(analysisUpload(second, "c2"));
  EXPECT_EQ(response.races_new(), 30u);        // v1:a100 to v1:a129
  EXPECT_EQ(response.races_unresolved(), 70u); // v1:a30 to v1:a99
  EXPECT_EQ(response.races_resolved(), 30u);   // v1:a0 to v1:a29

  auto races = racesByFingerprint(*store, "main");
  ASSERT_EQ(races.size(), 130u);
  EXPECT_EQ(races["v1:a40"].occurrence_count(), 2u);
  EXPECT_EQ(races["v1:a40"].candidate().kernel(), "k2");
  EXPECT_EQ(races["v1:a40"].detection_state(), v1::DETECTION_STATE_UNRESOLVED);
  EXPECT_EQ(races["v1:a129"].candidate().first().location().file(),
            "src/k2.cu");
  EXPECT_EQ(races["v1:a129"].detection_state(), v1::DETECTION_STATE_NEW);
  EXPECT_EQ(races["v1:a5"].candidate().kernel(), "reduce");
  EXPECT_EQ(races["v1:a5"].detection_state(), v1::DETECTION_STATE_RESOLVED);
  EXPECT_EQ(races.count("v1:faint"), 0u);
}

TEST_P(IngestTest, BadUploadNamesTheFieldAndStoresNothing) {
  upload(analysisUpload({candidate("v1:aa")}, "c1"));
  auto bad = analysisUpload({candidate("v1:bb"), candidate("")}, "c2");
  auto result = store->uploadAnalysis(bad);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code, StatusCode::kInvalidArgument);
  EXPECT_NE(result.status().message.find("result.candidates[1].fingerprint"),
            std::string::npos)
      << result.status().message;
  auto races = racesByFingerprint(*store, "main");
  EXPECT_EQ(races.size(), 1u);
  EXPECT_EQ(races["v1:aa"].detection_state(), v1::DETECTION_STATE_NEW);
  EXPECT_EQ(store->listRuns({})->runs_size(), 1);

  auto no_project = analysisUpload({}, "c3", "main", "");
  EXPECT_NE(store->uploadAnalysis(no_project).status().message.find(
                "metadata.project"),
            std::string::npos);
}

// Found by fuzzing: a report's time beyond what a Timestamp holds (from a
// gRPC client; JSON cannot carry one) overflowed when turned into
// microseconds.
TEST_P(IngestTest, RuntimeReportTimeBeyondATimestampIsRefused) {
  const std::pair<int64_t, int32_t> times[] = {
      {-7293013040254568192, 0}, {253402300800, 0}, {0, -1}, {0, 1000000000}};
  for (auto [seconds, nanos] : times) {
    auto report = runtimeReport("r1", {"v1:aa"});
    auto *time = report.mutable_report()->mutable_observed_at();
    time->set_seconds(seconds);
    time->set_nanos(nanos);
    auto result = store->reportRuntime(report);
    EXPECT_EQ(result.status().code, StatusCode::kInvalidArgument) << seconds;
    EXPECT_NE(result.status().message.find("report.observed_at"),
              std::string::npos)
        << result.status().message;
  }
  EXPECT_EQ(store->listRuns({})->runs_size(), 0);
}

// Found by fuzzing: a candidate scored NaN (which proto3 JSON spells
// "NaN") reached SQLite as NULL, against the score column's NOT NULL: an
// INTERNAL error for a client's mistake.
TEST_P(IngestTest, CandidateScoreMustBeFinite) {
  for (double score : {std::nan(""), HUGE_VAL, -HUGE_VAL}) {
    auto c = candidate("v1:aa");
    c.set_score(score);
    auto result = store->uploadAnalysis(analysisUpload({c}, "c1"));
    EXPECT_EQ(result.status().code, StatusCode::kInvalidArgument) << score;
    EXPECT_NE(result.status().message.find("result.candidates[0].score"),
              std::string::npos)
        << result.status().message;
  }
  EXPECT_EQ(store->listRuns({})->runs_size(), 0);
}

TEST_P(IngestTest, HostileStringsComeBackVerbatim) {
  const std::string file = "x'); DROP TABLE races; --<script>alert(1)</script>.cu";
  auto c = candidate("v1:dd", "k\"'; --", file);
  c.mutable_first()->set_expression("a[i] /* <img src=x onerror=alert(1)> */");
  upload(analysisUpload({c}, "c1", "main", "demo"));
  auto races = racesByFingerprint(*store, "main");
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races["v1:dd"].candidate().first().location().file(), file);
  EXPECT_EQ(races["v1:dd"].candidate().kernel(), "k\"'; --");
  EXPECT_EQ(races["v1:dd"].candidate().first().expression(),
            "a[i] /* <img src=x onerror=alert(1)> */");
  v1::ListRacesRequest by_file;
  by_file.mutable_filter()->set_file("DROP TABLE");
  EXPECT_EQ(store->listRaces(by_file)->races_size(), 1);
}

TEST_P(IngestTest, SourceSuppressionStartsAsIntentional) {
  auto c = candidate("v1:ee");
  c.mutable_suppression()->set_kind("intentional");
  c.mutable_suppression()->set_reason("benign flag write");
  upload(analysisUpload({c}, "c1"));
  auto race = racesByFingerprint(*store, "main")["v1:ee"];
  EXPECT_EQ(race.review().state(), v1::REVIEW_STATE_INTENTIONAL);
  EXPECT_EQ(race.review().comment(), "benign flag write");
}

TEST_P(IngestTest, DataSurvivesReopeningTheFile) {
  upload(analysisUpload({candidate("v1:aa")}, "c1"));
  store.reset();
  store = openStore(db);
  EXPECT_EQ(racesByFingerprint(*store, "main").size(), 1u);
}

INSTANTIATE_BACKEND_TESTS(IngestTest);

} // namespace
} // namespace gpurace::testing
