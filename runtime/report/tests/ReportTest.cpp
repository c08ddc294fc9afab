#include "runtime/report/RaceReport.h"

#include "proto/JsonCodec.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

namespace gpurace::rt {
namespace {

v1::AccessSite site(const std::string &id, const std::string &expr,
                    v1::AccessKind kind, uint32_t line) {
  v1::AccessSite s;
  s.set_site_id(id);
  s.set_expression(expr);
  s.set_kind(kind);
  s.set_kernel("k");
  v1::SourceLocation *l = s.mutable_location();
  l->set_file("k.cu");
  l->set_function("k");
  l->set_line(line);
  l->set_column(5);
  l->set_end_line(line);
  l->set_end_column(8);
  return s;
}

v1::InstrumentationPlan twoSitePlan() {
  v1::InstrumentationPlan plan;
  plan.add_kernels("k");
  *plan.add_access_sites() = site("s-a", "A[i]", v1::ACCESS_KIND_WRITE, 3);
  *plan.add_access_sites() = site("s-b", "A[i + 1]", v1::ACCESS_KIND_READ, 4);
  return plan;
}

std::string writeTemp(const std::string &name, const std::string &text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(SitePlanTest, LoadsAPlanFile) {
  std::string path = writeTemp("plan.json", toJson(twoSitePlan()));
  std::string error;
  auto plan = SitePlan::load(path, error);
  ASSERT_TRUE(plan) << error;
  EXPECT_EQ(plan->size(), 2u);
  EXPECT_EQ(plan->site(1)->site_id(), "s-b");
  EXPECT_FALSE(plan->site(2));
  EXPECT_TRUE(plan->watches("k"));
  EXPECT_FALSE(plan->watches("other"));
}

// A plan made with absolute paths reports its sites relative to the root
// the agent is given (gpurace run --root, or the git top level).
TEST(SitePlanTest, SitesAreNamedRelativeToTheSourceRoot) {
  v1::InstrumentationPlan made = twoSitePlan();
  made.mutable_access_sites(0)->mutable_location()->set_file(
      "/home/ci/build-123/src/k.cu");
  made.mutable_access_sites(1)->mutable_location()->set_file(
      "/usr/local/cuda/include/cuda.h");
  SitePlan plan(made);
  plan.relativizeSourcePaths("/home/ci/build-123");
  EXPECT_EQ(plan.site(0)->location().file(), "src/k.cu");
  EXPECT_EQ(plan.site(1)->location().file(), "/usr/local/cuda/include/cuda.h");
}

TEST(SitePlanTest, NamesTheFieldOfABadSite) {
  v1::InstrumentationPlan plan = twoSitePlan();
  plan.mutable_access_sites(1)->mutable_location()->set_line(0);
  std::string path = writeTemp("bad-plan.json", toJson(plan));
  std::string error;
  EXPECT_FALSE(SitePlan::load(path, error));
  EXPECT_NE(error.find("bad-plan.json: access_sites[1].location.line"),
            std::string::npos)
      << error;
}

TEST(SitePlanTest, RejectsAFileThatIsNotAPlan) {
  std::string path = writeTemp("junk.json", "{\"kernelz\": 1}");
  std::string error;
  EXPECT_FALSE(SitePlan::load(path, error));
  EXPECT_NE(error.find("junk.json: not an InstrumentationPlan"), std::string::npos)
      << error;
}

TEST(SitePlanTest, SyncSitesAreNumberedAfterAccessSites) {
  v1::InstrumentationPlan plan = twoSitePlan();
  v1::SyncSite *sync = plan.add_sync_sites();
  sync->set_site_id("s-bar");
  sync->set_kind(v1::SYNC_KIND_BARRIER);
  sync->set_expression("__syncthreads()");
  *sync->mutable_location() = plan.access_sites(0).location();
  SitePlan sites(plan);
  EXPECT_EQ(sites.syncIndex(0), 2u);
  EXPECT_EQ(sites.site(2)->expression(), "__syncthreads()");
}

TEST(RaceReportTest, FingerprintIgnoresOrderBlanksAndLines) {
  v1::AccessSite a = site("s-a", "A[i]", v1::ACCESS_KIND_WRITE, 3);
  v1::AccessSite b = site("s-b", "A[i + 1]", v1::ACCESS_KIND_READ, 4);
  v1::AccessSite b_moved = site("s-b", "A[i+1]", v1::ACCESS_KIND_READ, 40);
  std::string f = raceFingerprint(a, b, v1::RACE_CLASS_INTRA_BLOCK);
  EXPECT_EQ(f.substr(0, 3), "v1:");
  EXPECT_EQ(f, raceFingerprint(b_moved, a, v1::RACE_CLASS_INTRA_BLOCK));
  EXPECT_NE(f, raceFingerprint(a, b, v1::RACE_CLASS_INTER_BLOCK));
}

TEST(RaceReportTest, ObservedRaceCarriesSitesAndConcreteThreads) {
  SitePlan plan(twoSitePlan());
  LaunchLayout layout({2, 2, 1}, {16, 4, 1});
  Race race;
  race.first_site = 0;
  race.second_site = 1;
  race.race_class = v1::RACE_CLASS_INTER_BLOCK;
  race.first_tid = 17;             // block 0, thread (1, 1)
  race.second_tid = 3 * 64 + 63;  // block (1, 1), thread (15, 3)
  race.address = 0x1234;
  race.count = 5;
  v1::ObservedRace o = toObservedRace(race, plan, layout);
  EXPECT_EQ(o.first().site_id(), "s-a");
  EXPECT_EQ(o.second().site_id(), "s-b");
  EXPECT_EQ(o.witness().first().thread_idx().x(), 1u);
  EXPECT_EQ(o.witness().first().thread_idx().y(), 1u);
  EXPECT_EQ(o.witness().second().block_idx().x(), 1u);
  EXPECT_EQ(o.witness().second().block_idx().y(), 1u);
  EXPECT_EQ(o.witness().second().thread_idx().x(), 15u);
  EXPECT_EQ(o.witness().second().thread_idx().y(), 3u);
  EXPECT_EQ(o.witness().grid_dim().y(), 2u);
  EXPECT_EQ(o.address(), 0x1234u);
  EXPECT_EQ(o.count(), 5u);
  EXPECT_EQ(o.fingerprint(), raceFingerprint(o.first(), o.second(),
                                             v1::RACE_CLASS_INTER_BLOCK));
}

TEST(RaceReportTest, ReusesTheAnalyzersFingerprintForTheSamePair) {
  v1::RaceCandidate candidate;
  candidate.set_fingerprint("v1:analyzer");
  candidate.set_race_class(v1::RACE_CLASS_INTRA_BLOCK);
  candidate.mutable_first()->set_site_id("s-b");
  candidate.mutable_second()->set_site_id("s-a");
  SitePlan plan(twoSitePlan(), {candidate});
  Race race;
  race.second_site = 1;
  race.race_class = v1::RACE_CLASS_INTRA_BLOCK;
  LaunchLayout layout({1, 1, 1}, {64, 1, 1});
  EXPECT_EQ(toObservedRace(race, plan, layout).fingerprint(), "v1:analyzer");
}

} // namespace
} // namespace gpurace::rt
