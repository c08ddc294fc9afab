#include "fuzz/SeededStore.h"

#include "storage/SqlRaceStore.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace gpurace::fuzz {

namespace {

[[noreturn]] void fail(const std::string &what) {
  std::fprintf(stderr, "gpurace fuzzer: seeded store: %s\n", what.c_str());
  std::abort();
}

template <typename T> T check(Result<T> result, const char *what) {
  if (!result.ok())
    fail(std::string(what) + ": " + result.status().message);
  return std::move(result.value());
}

std::string makeScratchDirectory() {
  // tmpfs where there is one: SQLite's syncs then cost nothing.
  const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  std::string pattern = std::string(base) + "/gpurace-fuzz-XXXXXX";
  if (!mkdtemp(pattern.data()))
    fail("mkdtemp in " + std::string(base));
  return pattern;
}

std::string databasePath() { return scratchDirectory() + "/races.db"; }

v1::RaceCandidate candidate(const std::string &fingerprint,
                            v1::RaceClass race_class, uint32_t line) {
  v1::RaceCandidate c;
  c.set_fingerprint(fingerprint);
  c.set_race_class(race_class);
  c.set_kernel("reduce");
  c.set_score(0.5 + line / 100.0);
  c.set_message("race in reduce");
  for (v1::AccessSite *site : {c.mutable_first(), c.mutable_second()}) {
    site->mutable_location()->set_file("src/reduce.cu");
    site->mutable_location()->set_line(line);
  }
  return c;
}

v1::UploadAnalysisRequest analysis(const std::string &commit,
                                   std::vector<v1::RaceCandidate> candidates) {
  v1::UploadAnalysisRequest request;
  request.set_upload_id("seed-" + commit);
  request.mutable_metadata()->set_project("demo");
  request.mutable_metadata()->set_branch("main");
  request.mutable_metadata()->set_commit(commit);
  request.set_full_analysis(true);
  for (v1::RaceCandidate &c : candidates)
    *request.mutable_result()->add_candidates() = std::move(c);
  return request;
}

v1::ReportRuntimeRequest runtimeReport() {
  v1::ReportRuntimeRequest request;
  request.set_upload_id("seed-runtime");
  request.mutable_metadata()->set_project("demo");
  request.mutable_metadata()->set_branch("main");
  request.mutable_metadata()->set_commit("2222");
  v1::RuntimeReport &report = *request.mutable_report();
  report.mutable_launch()->set_kernel("reduce");
  report.mutable_observed_at()->set_seconds(1767225600);
  for (const char *fingerprint : {"v1:cc", "v1:dd"}) {
    v1::ObservedRace *race = report.add_races();
    race->set_fingerprint(fingerprint);
    race->set_race_class(v1::RACE_CLASS_INTRA_BLOCK);
    race->set_count(3);
  }
  return request;
}

void seed(RaceStore &store) {
  using v1::RACE_CLASS_INTER_BLOCK;
  using v1::RACE_CLASS_INTRA_BLOCK;
  check(store.uploadAnalysis(
            analysis("1111", {candidate("v1:aa", RACE_CLASS_INTER_BLOCK, 10),
                              candidate("v1:bb", RACE_CLASS_INTRA_BLOCK, 20)})),
        "first analysis");
  check(store.uploadAnalysis(
            analysis("2222", {candidate("v1:aa", RACE_CLASS_INTER_BLOCK, 10),
                              candidate("v1:cc", RACE_CLASS_INTRA_BLOCK, 30)})),
        "second analysis");
  check(store.reportRuntime(runtimeReport()), "runtime report");
  v1::SetReviewRequest review;
  review.set_race_id(1);
  review.set_state(v1::REVIEW_STATE_FALSE_POSITIVE);
  review.set_comment("indices are disjoint");
  review.set_author("fuzz");
  check(store.setReview(review), "review");
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// The seeded database file's bytes. Closing the store checkpoints its
// write-ahead log into the file.
const std::string &seededImage() {
  static const std::string image = [] {
    {
      auto store = check(SqlRaceStore::open(databasePath()), "create");
      seed(*store);
    }
    return readFile(databasePath());
  }();
  return image;
}

void removeScratchDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(scratchDirectory(), ignored);
}

// A store on a fresh copy of the seeded database.
std::unique_ptr<RaceStore> openCopy() {
  const std::string &image = seededImage();
  const std::string path = databasePath();
  for (const char *suffix : {"-wal", "-shm"})
    std::remove((path + suffix).c_str());
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out.write(image.data(), static_cast<std::streamsize>(image.size())) ||
        !out.flush())
      fail("cannot write " + path);
  }
  StoreOptions options;
  options.migrate = false;
  return check(SqlRaceStore::open(path, options), "open");
}

} // namespace

SeededStore::SeededStore() : store_(openCopy()) {}

void SeededStore::reset() {
  if (!written_)
    return;
  // The copy is replaced under the open store: close it first.
  store_.reset();
  store_ = openCopy();
  written_ = false;
}

Result<v1::UploadAnalysisResponse>
SeededStore::uploadAnalysis(const v1::UploadAnalysisRequest &request) {
  return writing().uploadAnalysis(request);
}

Result<RuntimeIngestResult>
SeededStore::reportRuntime(const v1::ReportRuntimeRequest &request) {
  return writing().reportRuntime(request);
}

Result<v1::ListProjectsResponse> SeededStore::listProjects() {
  return reading().listProjects();
}

Result<v1::Summary>
SeededStore::getSummary(const v1::GetSummaryRequest &request) {
  return reading().getSummary(request);
}

Result<v1::ListRacesResponse>
SeededStore::listRaces(const v1::ListRacesRequest &request) {
  return reading().listRaces(request);
}

Result<v1::Race> SeededStore::getRace(const v1::GetRaceRequest &request) {
  return reading().getRace(request);
}

Result<v1::GetRaceHistoryResponse>
SeededStore::getRaceHistory(const v1::GetRaceHistoryRequest &request) {
  return reading().getRaceHistory(request);
}

Result<v1::ListRunsResponse>
SeededStore::listRuns(const v1::ListRunsRequest &request) {
  return reading().listRuns(request);
}

Result<v1::RunDetail> SeededStore::getRun(const v1::GetRunRequest &request) {
  return reading().getRun(request);
}

Result<v1::GetTrendResponse>
SeededStore::getTrend(const v1::GetTrendRequest &request) {
  return reading().getTrend(request);
}

Result<v1::Race> SeededStore::setReview(const v1::SetReviewRequest &request) {
  return writing().setReview(request);
}

Result<CreatedToken> SeededStore::createToken(const std::string &name,
                                              const std::string &project,
                                              Role role) {
  return writing().createToken(name, project, role);
}

Result<std::vector<TokenInfo>> SeededStore::listTokens() {
  return reading().listTokens();
}

Status SeededStore::revokeToken(int64_t id) {
  return writing().revokeToken(id);
}

Result<std::optional<TokenInfo>>
SeededStore::findToken(const std::string &secret) {
  return reading().findToken(secret);
}

Result<bool> SeededStore::hasLiveTokens() { return reading().hasLiveTokens(); }

Result<PruneResult> SeededStore::prune(uint32_t keep_runs) {
  return writing().prune(keep_runs);
}

const std::string &scratchDirectory() {
  // Never destroyed: the exit handler that removes the folder reads it.
  static const std::string *dir = [] {
    auto *made = new std::string(makeScratchDirectory());
    std::atexit(removeScratchDirectory);
    return made;
  }();
  return *dir;
}

} // namespace gpurace::fuzz
