#include "storage/tests/StoreTestSupport.h"

#include <cstdlib>
#include <filesystem>

namespace gpurace::testing {

TempDir::TempDir() {
  char pattern[] = "/tmp/gpurace-store-XXXXXX";
  dir_ = mkdtemp(pattern);
}

TempDir::~TempDir() { std::filesystem::remove_all(dir_); }

v1::RaceCandidate candidate(const std::string &fingerprint,
                            const std::string &kernel,
                            const std::string &file) {
  v1::RaceCandidate c;
  c.set_fingerprint(fingerprint);
  c.set_kernel(kernel);
  c.set_race_class(v1::RACE_CLASS_INTER_BLOCK);
  c.set_score(0.9);
  for (v1::AccessSite *site : {c.mutable_first(), c.mutable_second()}) {
    site->mutable_location()->set_file(file);
    site->mutable_location()->set_line(12);
    site->set_expression("out[i]");
    site->set_kind(v1::ACCESS_KIND_WRITE);
    site->mutable_excerpt()->set_first_line(11);
    site->mutable_excerpt()->add_lines("  int i = threadIdx.x;");
    site->mutable_excerpt()->add_lines("  out[i] = in[i];");
  }
  c.mutable_witness()->mutable_block_dim()->set_x(256);
  c.mutable_witness()->mutable_grid_dim()->set_x(4);
  c.set_message("inter-block race on out");
  return c;
}

v1::UploadAnalysisRequest
analysisUpload(const std::vector<v1::RaceCandidate> &candidates,
               const std::string &commit, const std::string &branch,
               const std::string &project, bool full) {
  v1::UploadAnalysisRequest r;
  r.mutable_metadata()->set_project(project);
  r.mutable_metadata()->set_commit(commit);
  r.mutable_metadata()->set_branch(branch);
  r.mutable_result()->set_tool_version("test");
  for (const auto &c : candidates)
    *r.mutable_result()->add_candidates() = c;
  r.set_full_analysis(full);
  return r;
}

v1::ReportRuntimeRequest runtimeReport(const std::string &upload_id,
                                       const std::vector<std::string> &fps,
                                       const std::string &branch,
                                       const std::string &project) {
  v1::ReportRuntimeRequest r;
  r.set_upload_id(upload_id);
  r.mutable_metadata()->set_project(project);
  r.mutable_metadata()->set_branch(branch);
  r.mutable_metadata()->set_commit("c-runtime");
  r.mutable_report()->set_report_id(upload_id);
  r.mutable_report()->mutable_launch()->set_kernel("reduce");
  r.mutable_report()->mutable_device()->set_name("NVIDIA H100");
  for (const auto &fp : fps) {
    v1::ObservedRace *o = r.mutable_report()->add_races();
    o->set_fingerprint(fp);
    o->set_race_class(v1::RACE_CLASS_INTER_BLOCK);
    o->set_count(3);
    o->mutable_first()->mutable_location()->set_file("src/reduce.cu");
  }
  return r;
}

std::unique_ptr<SqlRaceStore> openStore(const std::string &db) {
  auto store = SqlRaceStore::open(db);
  EXPECT_TRUE(store.ok()) << store.status().message;
  return store.ok() ? std::move(store.value()) : nullptr;
}

std::string backendName(const ::testing::TestParamInfo<Backend> &info) {
  return info.param == Backend::kSqlite ? "Sqlite" : "Postgres";
}

void PrintTo(Backend backend, std::ostream *out) {
  *out << (backend == Backend::kSqlite ? "SQLite" : "PostgreSQL");
}

std::optional<std::string> freshDatabase(Backend backend, const TempDir &dir) {
  if (backend == Backend::kSqlite)
    return dir.path("races.db");
  PostgresCluster *cluster = PostgresCluster::instance();
  if (!cluster)
    return std::nullopt;
  return cluster->createDatabase();
}

void StoreTest::SetUp() {
  auto fresh = freshDatabase(GetParam(), dir);
  if (!fresh)
    GTEST_SKIP() << "PostgreSQL tests skipped: "
                 << PostgresCluster::unavailableReason();
  db = *fresh;
  store = openStore(db);
  ASSERT_TRUE(store);
}

void PostgresTest::SetUp() {
  cluster = PostgresCluster::instance();
  if (!cluster)
    GTEST_SKIP() << "PostgreSQL tests skipped: "
                 << PostgresCluster::unavailableReason();
  url = cluster->createDatabase();
}

std::map<std::string, v1::Race> racesByFingerprint(RaceStore &store,
                                                   const std::string &branch) {
  v1::ListRacesRequest request;
  request.mutable_filter()->set_project("demo");
  request.mutable_filter()->set_branch(branch);
  request.set_page_size(1000);
  std::map<std::string, v1::Race> out;
  while (true) {
    auto list = store.listRaces(request);
    EXPECT_TRUE(list.ok()) << list.status().message;
    if (!list.ok())
      return out;
    for (const auto &race : list->races())
      out[race.fingerprint()] = race;
    if (list->next_page_token().empty())
      return out;
    request.set_page_token(list->next_page_token());
  }
}

} // namespace gpurace::testing
