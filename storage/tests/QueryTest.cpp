// Queries: filters, sorting, pages, "new since", summaries, history, runs
// and trends.
#include "proto/JsonCodec.h"
#include "storage/tests/StoreTestSupport.h"

namespace gpurace::testing {
namespace {

class QueryTest : public StoreTest {
protected:

  std::string upload(const v1::UploadAnalysisRequest &r) {
    auto result = store->uploadAnalysis(r);
    EXPECT_TRUE(result.ok()) << result.status().message;
    return result.ok() ? result->run_id() : "";
  }

  std::vector<std::string> fingerprints(const v1::ListRacesRequest &r) {
    auto list = store->listRaces(r);
    EXPECT_TRUE(list.ok()) << list.status().message;
    std::vector<std::string> out;
    if (list.ok())
      for (const auto &race : list->races())
        out.push_back(race.fingerprint());
    return out;
  }
};

using Fps = std::vector<std::string>;

TEST_P(QueryTest, FiltersByClassKernelFileAndStatus) {
  auto warp = candidate("v1:02", "scan", "src/scan.cu");
  warp.set_race_class(v1::RACE_CLASS_INTRA_WARP);
  upload(analysisUpload({candidate("v1:01"), warp}, "c1"));
  store->reportRuntime(runtimeReport("agent", {"v1:01"}));

  v1::ListRacesRequest r;
  r.mutable_filter()->add_classes(v1::RACE_CLASS_INTRA_WARP);
  EXPECT_EQ(fingerprints(r), Fps{"v1:02"});
  r.Clear();
  r.mutable_filter()->set_kernel("reduce");
  EXPECT_EQ(fingerprints(r), Fps{"v1:01"});
  r.Clear();
  r.mutable_filter()->set_file("scan.cu");
  EXPECT_EQ(fingerprints(r), Fps{"v1:02"});
  r.Clear();
  r.mutable_filter()->add_statuses(v1::RACE_STATUS_CONFIRMED);
  EXPECT_EQ(fingerprints(r), Fps{"v1:01"});
  r.mutable_filter()->add_statuses(v1::RACE_STATUS_POTENTIAL);
  EXPECT_EQ(fingerprints(r).size(), 2u);
}

TEST_P(QueryTest, SortsAndPages) {
  std::vector<v1::RaceCandidate> cs;
  for (int i = 0; i < 5; ++i) {
    cs.push_back(candidate("v1:0" + std::to_string(i)));
    cs.back().set_score(0.1 * (i + 1));
  }
  upload(analysisUpload(cs, "c1"));
  v1::ListRacesRequest r;
  r.set_order_by("-score");
  r.set_page_size(2);
  auto page1 = store->listRaces(r);
  ASSERT_TRUE(page1.ok());
  EXPECT_EQ(page1->total_count(), 5u);
  ASSERT_EQ(page1->races_size(), 2);
  EXPECT_EQ(page1->races(0).fingerprint(), "v1:04");
  Fps seen;
  while (true) {
    auto page = store->listRaces(r);
    ASSERT_TRUE(page.ok());
    for (const auto &race : page->races())
      seen.push_back(race.fingerprint());
    if (page->next_page_token().empty())
      break;
    r.set_page_token(page->next_page_token());
  }
  EXPECT_EQ(seen, (Fps{"v1:04", "v1:03", "v1:02", "v1:01", "v1:00"}));
  r.set_order_by("score");
  r.clear_page_token();
  EXPECT_EQ(fingerprints(r).front(), "v1:00");
}

// A list counts at most the store's count limit past its page and says
// so; the pages still reach every race, and the last page's count is exact.
TEST_P(QueryTest, CountStopsAtTheLimitAndSaysItIsALowerBound) {
  std::vector<v1::RaceCandidate> cs;
  for (int i = 0; i < 5; ++i)
    cs.push_back(candidate("v1:0" + std::to_string(i)));
  upload(analysisUpload(cs, "c1"));
  StoreOptions options;
  options.page_limits.count_limit = 3;
  auto limited = SqlRaceStore::open(db, options);
  ASSERT_TRUE(limited.ok()) << limited.status().message;
  v1::ListRacesRequest r;
  r.mutable_filter()->set_project("demo");
  r.set_page_size(2);
  auto first = (*limited)->listRaces(r);
  ASSERT_TRUE(first.ok()) << first.status().message;
  EXPECT_EQ(first->total_count(), 3u);
  EXPECT_TRUE(first->total_count_is_lower_bound());
  Fps seen;
  v1::ListRacesResponse page = *first;
  while (true) {
    for (const auto &race : page.races())
      seen.push_back(race.fingerprint());
    if (page.next_page_token().empty())
      break;
    r.set_page_token(page.next_page_token());
    auto next = (*limited)->listRaces(r);
    ASSERT_TRUE(next.ok()) << next.status().message;
    page = *next;
  }
  EXPECT_EQ(seen.size(), 5u);
  EXPECT_EQ(page.total_count(), 5u);
  EXPECT_FALSE(page.total_count_is_lower_bound());
  // A page larger than the limit still learns whether another follows.
  r.clear_page_token();
  r.set_page_size(4);
  auto wide = (*limited)->listRaces(r);
  ASSERT_TRUE(wide.ok()) << wide.status().message;
  EXPECT_EQ(wide->races_size(), 4);
  EXPECT_FALSE(wide->next_page_token().empty());
  // Under the limit the count is exact.
  r.clear_page_token();
  r.set_page_size(50);
  r.mutable_filter()->add_statuses(v1::RACE_STATUS_POTENTIAL);
  r.mutable_filter()->set_kernel("nothing-here");
  auto none = (*limited)->listRaces(r);
  ASSERT_TRUE(none.ok()) << none.status().message;
  EXPECT_EQ(none->total_count(), 0u);
  EXPECT_FALSE(none->total_count_is_lower_bound());
  // The default limit counts these 5 exactly.
  auto exact = store->listRaces(v1::ListRacesRequest());
  ASSERT_TRUE(exact.ok()) << exact.status().message;
  EXPECT_EQ(exact->total_count(), 5u);
  EXPECT_FALSE(exact->total_count_is_lower_bound());
}

// Counts and last sightings live apart from the race rows: sorted by them,
// pages still come out in order, ties broken by id, across page borders.
TEST_P(QueryTest, CounterSortsPageThroughTiesInOrder) {
  std::vector<v1::RaceCandidate> cs;
  for (int i = 0; i < 5; ++i)
    cs.push_back(candidate("v1:0" + std::to_string(i)));
  upload(analysisUpload(cs, "c1"));
  // Each observation counts 3: 03 ends at 7, 01 at 4, the rest at 1; 01
  // and 03 were seen last, together.
  store->reportRuntime(runtimeReport("a", {"v1:03"}));
  store->reportRuntime(runtimeReport("b", {"v1:01", "v1:03"}));
  auto all = [&](const std::string &order_by) {
    v1::ListRacesRequest r;
    r.mutable_filter()->set_project("demo");
    r.mutable_filter()->set_branch("main");
    r.set_order_by(order_by);
    r.set_page_size(2);
    Fps seen;
    while (true) {
      auto page = store->listRaces(r);
      EXPECT_TRUE(page.ok()) << page.status().message;
      if (!page.ok())
        return seen;
      EXPECT_EQ(page->total_count(), 5u);
      for (const auto &race : page->races())
        seen.push_back(race.fingerprint());
      if (page->next_page_token().empty())
        return seen;
      r.set_page_token(page->next_page_token());
    }
  };
  EXPECT_EQ(all("-occurrences"), (Fps{"v1:03", "v1:01", "v1:00", "v1:02", "v1:04"}));
  EXPECT_EQ(all("occurrences"), (Fps{"v1:00", "v1:02", "v1:04", "v1:01", "v1:03"}));
  EXPECT_EQ(all("-last_seen"), (Fps{"v1:01", "v1:03", "v1:00", "v1:02", "v1:04"}));
  EXPECT_EQ(all("first_seen"), (Fps{"v1:00", "v1:01", "v1:02", "v1:03", "v1:04"}));
}

TEST_P(QueryTest, UnknownProjectListsNothing) {
  upload(analysisUpload({candidate("v1:01")}, "c1"));
  v1::ListRacesRequest r;
  r.mutable_filter()->set_project("no-such-project");
  auto list = store->listRaces(r);
  ASSERT_TRUE(list.ok()) << list.status().message;
  EXPECT_EQ(list->total_count(), 0u);
  EXPECT_EQ(list->races_size(), 0);
  r.mutable_filter()->set_project("demo");
  EXPECT_EQ(fingerprints(r), Fps{"v1:01"});
}

TEST_P(QueryTest, BadRequestsNameTheField) {
  v1::ListRacesRequest r;
  r.set_order_by("colour");
  EXPECT_NE(store->listRaces(r).status().message.find("order_by"),
            std::string::npos);
  r.Clear();
  r.set_page_size(100000);
  EXPECT_NE(store->listRaces(r).status().message.find("page_size"),
            std::string::npos);
  r.Clear();
  r.set_page_token("garbage");
  EXPECT_NE(store->listRaces(r).status().message.find("page_token"),
            std::string::npos);
  r.Clear();
  r.mutable_filter()->set_new_since_commit("nosuchcommit");
  auto missing = store->listRaces(r);
  EXPECT_EQ(missing.status().code, StatusCode::kNotFound);
}

TEST_P(QueryTest, NewSinceCommitIsADiffAgainstTheBaseline) {
  upload(analysisUpload({candidate("v1:aa")}, "1111aaaa"));
  upload(analysisUpload({candidate("v1:aa"), candidate("v1:bb")}, "2222bbbb",
                        "feature"));
  v1::ListRacesRequest r;
  r.mutable_filter()->set_project("demo");
  r.mutable_filter()->set_branch("feature");
  r.mutable_filter()->set_new_since_commit("1111"); // a prefix is enough
  EXPECT_EQ(fingerprints(r), Fps{"v1:bb"});

  // Fixed on the branch: no longer new.
  std::string fixed = upload(analysisUpload({candidate("v1:aa")}, "3333cccc",
                                            "feature"));
  EXPECT_TRUE(fingerprints(r).empty());
  r.mutable_filter()->clear_new_since_commit();
  r.mutable_filter()->set_new_since_run(fixed);
  EXPECT_TRUE(fingerprints(r).empty());
}

TEST_P(QueryTest, SummaryCountsByEveryState) {
  auto warp = candidate("v1:02");
  warp.set_race_class(v1::RACE_CLASS_INTRA_WARP);
  upload(analysisUpload({candidate("v1:01"), warp}, "c1"));
  store->reportRuntime(runtimeReport("agent", {"v1:01"}));
  v1::GetSummaryRequest r;
  r.set_project("demo");
  r.set_branch("main");
  auto s = store->getSummary(r);
  ASSERT_TRUE(s.ok()) << s.status().message;
  EXPECT_EQ(s->total(), 2u);
  EXPECT_EQ(s->by_status().at("RACE_STATUS_CONFIRMED"), 1u);
  EXPECT_EQ(s->by_status().at("RACE_STATUS_POTENTIAL"), 1u);
  EXPECT_EQ(s->by_class().at("RACE_CLASS_INTRA_WARP"), 1u);
  EXPECT_EQ(s->by_review().at("REVIEW_STATE_UNREVIEWED"), 2u);
  EXPECT_EQ(s->by_detection().at("DETECTION_STATE_NEW"), 2u);
}

TEST_P(QueryTest, RaceHistoryFollowsTheRuns) {
  upload(analysisUpload({candidate("v1:aa")}, "c1"));
  upload(analysisUpload({}, "c2"));
  upload(analysisUpload({candidate("v1:aa")}, "c3"));
  auto race = racesByFingerprint(*store, "main")["v1:aa"];
  v1::GetRaceHistoryRequest r;
  r.set_id(race.id());
  auto history = store->getRaceHistory(r);
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->entries_size(), 3);
  EXPECT_EQ(history->entries(0).detection_state(), v1::DETECTION_STATE_NEW);
  EXPECT_FALSE(history->entries(1).present());
  EXPECT_EQ(history->entries(1).run().metadata().commit(), "c2");
  EXPECT_EQ(history->entries(2).detection_state(), v1::DETECTION_STATE_REOPENED);
}

TEST_P(QueryTest, GetRaceCarriesExcerptsAndOccurrences) {
  upload(analysisUpload({candidate("v1:aa")}, "c1"));
  store->reportRuntime(runtimeReport("agent", {"v1:aa"}));
  v1::GetRaceRequest r;
  r.set_project("demo");
  r.set_fingerprint("v1:aa");
  auto race = store->getRace(r);
  ASSERT_TRUE(race.ok()) << race.status().message;
  EXPECT_EQ(race->candidate().second().excerpt().lines(1), "  out[i] = in[i];");
  ASSERT_EQ(race->occurrences_size(), 2);
  EXPECT_EQ(race->occurrences(0).source(), "runtime");
  EXPECT_EQ(race->occurrences(0).device().name(), "NVIDIA H100");
  EXPECT_EQ(race->occurrences(1).source(), "analysis");
  EXPECT_EQ(race->occurrences(1).block_dim().x(), 256u);
  r.Clear();
  r.set_id(9999);
  EXPECT_EQ(store->getRace(r).status().code, StatusCode::kNotFound);
}

// A runtime report observed before 1970 (a valid Timestamp, in JSON too)
// once gave its occurrence negative nanos, which no JSON holds: the HTTP
// API answered the race with an empty body.
TEST_P(QueryTest, OccurrenceObservedBefore1970ReadsBack) {
  auto report = runtimeReport("agent", {"v1:aa"});
  auto *time = report.mutable_report()->mutable_observed_at();
  time->set_seconds(-2);
  time->set_nanos(250000000);
  ASSERT_TRUE(store->reportRuntime(report).ok());
  v1::GetRaceRequest r;
  r.set_project("demo");
  r.set_fingerprint("v1:aa");
  auto race = store->getRace(r);
  ASSERT_TRUE(race.ok()) << race.status().message;
  ASSERT_EQ(race->occurrences_size(), 1);
  EXPECT_EQ(race->occurrences(0).first_seen().seconds(), -2);
  EXPECT_EQ(race->occurrences(0).first_seen().nanos(), 250000000);
  EXPECT_NE(toJson(race.value()), "");
}

TEST_P(QueryTest, RunDetailAndTrend) {
  upload(analysisUpload({candidate("v1:aa"), candidate("v1:bb")}, "c1"));
  std::string second = upload(analysisUpload({candidate("v1:aa"),
                                              candidate("v1:cc")}, "c2"));
  v1::GetRunRequest r;
  r.set_run_id(second);
  auto detail = store->getRun(r);
  ASSERT_TRUE(detail.ok()) << detail.status().message;
  EXPECT_EQ(detail->run().metadata().commit(), "c2");
  ASSERT_EQ(detail->races_added_size(), 1);
  EXPECT_EQ(detail->races_added(0).fingerprint(), "v1:cc");
  ASSERT_EQ(detail->races_resolved_size(), 1);
  EXPECT_EQ(detail->races_resolved(0).fingerprint(), "v1:bb");

  v1::GetTrendRequest t;
  t.set_project("demo");
  t.set_branch("main");
  auto trend = store->getTrend(t);
  ASSERT_TRUE(trend.ok());
  ASSERT_EQ(trend->points_size(), 2);
  EXPECT_EQ(trend->points(0).commit(), "c1");
  EXPECT_EQ(trend->points(1).open(), 2u);
  EXPECT_EQ(trend->points(1).added(), 1u);
  EXPECT_EQ(trend->points(1).resolved(), 1u);

  r.set_run_id("run-x");
  EXPECT_EQ(store->getRun(r).status().code, StatusCode::kNotFound);
}

v1::PerfFinding perfFinding(const std::string &fingerprint, v1::PerfKind kind, unsigned cost,
                            unsigned best, bool proved = false) {
  v1::PerfFinding finding;
  finding.set_fingerprint(fingerprint);
  finding.set_kind(kind);
  finding.set_cost(cost);
  finding.set_best(best);
  finding.set_proved(proved);
  finding.set_kernel("k");
  return finding;
}

TEST_P(QueryTest, ARunKeepsItsPerfFindingsWorstFirstAndFiltersThemByKind) {
  v1::UploadAnalysisRequest request = analysisUpload({candidate("v1:aa")}, "c1");
  auto *perf = request.mutable_result()->mutable_perf_findings();
  *perf->Add() = perfFinding("perf1:sectors", v1::PERF_KIND_UNCOALESCED, 8, 4);
  *perf->Add() = perfFinding("perf1:banks", v1::PERF_KIND_BANK_CONFLICT, 32, 1);
  *perf->Add() = perfFinding("perf1:proof", v1::PERF_KIND_BANK_CONFLICT, 1, 1, true);
  std::string run = upload(request);
  v1::GetRunRequest r;
  r.set_run_id(run);
  auto detail = store->getRun(r);
  ASSERT_TRUE(detail.ok()) << detail.status().message;
  // Proofs are not kept; the 32-way conflict comes before the 2x load.
  ASSERT_EQ(detail->perf_findings_size(), 2);
  EXPECT_EQ(detail->perf_findings(0).fingerprint(), "perf1:banks");
  EXPECT_EQ(detail->perf_findings(0).cost(), 32u);
  EXPECT_EQ(detail->perf_findings(1).fingerprint(), "perf1:sectors");
  // They are not races.
  EXPECT_EQ(detail->races_added_size(), 1);
  r.set_perf_kind(v1::PERF_KIND_UNCOALESCED);
  detail = store->getRun(r);
  ASSERT_TRUE(detail.ok());
  ASSERT_EQ(detail->perf_findings_size(), 1);
  EXPECT_EQ(detail->perf_findings(0).fingerprint(), "perf1:sectors");
}

TEST_P(QueryTest, APerfFindingWithoutAKindIsRejectedAndNothingIsStored) {
  v1::UploadAnalysisRequest request = analysisUpload({candidate("v1:aa")}, "c1");
  v1::PerfFinding bad = perfFinding("perf1:x", v1::PERF_KIND_UNSPECIFIED, 2, 1);
  *request.mutable_result()->add_perf_findings() = bad;
  auto response = store->uploadAnalysis(request);
  EXPECT_EQ(response.status().code, StatusCode::kInvalidArgument);
  EXPECT_NE(response.status().message.find("result.perf_findings[0].kind"), std::string::npos)
      << response.status().message;
  v1::ListRunsRequest runs;
  runs.set_project("demo");
  auto listed = store->listRuns(runs);
  EXPECT_TRUE(!listed.ok() || listed->runs_size() == 0);
}

TEST_P(QueryTest, ProjectsAndRunsAreListed) {
  upload(analysisUpload({}, "c1", "main", "zeta"));
  upload(analysisUpload({}, "c2", "main", "alpha"));
  upload(analysisUpload({}, "c3", "dev", "alpha"));
  auto projects = store->listProjects();
  ASSERT_TRUE(projects.ok());
  EXPECT_EQ(std::vector<std::string>(projects->projects().begin(),
                                     projects->projects().end()),
            (std::vector<std::string>{"alpha", "zeta"}));
  v1::ListRunsRequest r;
  r.set_project("alpha");
  auto runs = store->listRuns(r);
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs->runs_size(), 2);
  EXPECT_EQ(runs->runs(0).metadata().commit(), "c3"); // newest first
  r.set_branch("main");
  EXPECT_EQ(store->listRuns(r)->runs_size(), 1);
}

INSTANTIATE_BACKEND_TESTS(QueryTest);

} // namespace
} // namespace gpurace::testing
