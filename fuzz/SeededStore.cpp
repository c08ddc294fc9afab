#include "fuzz/SeededStore.h"

#include "storage/SqlRaceStore.h"

#include <sqlite3.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

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

void removeScratchDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(scratchDirectory(), ignored);
}

sqlite3 *openConnection(const std::string &path) {
  sqlite3 *db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK)
    fail("cannot open " + path + ": " + sqlite3_errmsg(db));
  return db;
}

// Copies every page of `from` over `to`.
void copyDatabase(sqlite3 *from, sqlite3 *to) {
  sqlite3_backup *backup = sqlite3_backup_init(to, "main", from, "main");
  if (!backup)
    fail(std::string("backup: ") + sqlite3_errmsg(to));
  int rc = sqlite3_backup_step(backup, -1);
  sqlite3_backup_finish(backup);
  if (rc != SQLITE_DONE)
    fail(std::string("backup: ") + sqlite3_errstr(rc));
}

} // namespace

SeededStore::SeededStore() {
  const std::string path = databasePath();
  {
    auto store = check(SqlRaceStore::open(path), "create");
    seed(*store);
  }
  seeded_ = openConnection(":memory:");
  restorer_ = openConnection(path);
  copyDatabase(restorer_, seeded_);
  version_ = dataVersion();
  StoreOptions options;
  options.migrate = false;
  store_ = check(SqlRaceStore::open(path, options), "open");
}

SeededStore::~SeededStore() {
  store_.reset();
  sqlite3_close(restorer_);
  sqlite3_close(seeded_);
}

void SeededStore::reset() {
  if (dataVersion() == version_)
    return;
  copyDatabase(seeded_, restorer_);
  version_ = dataVersion();
}

int64_t SeededStore::dataVersion() {
  sqlite3_stmt *statement = nullptr;
  if (sqlite3_prepare_v2(restorer_, "PRAGMA data_version", -1, &statement,
                         nullptr) != SQLITE_OK ||
      sqlite3_step(statement) != SQLITE_ROW)
    fail(std::string("data_version: ") + sqlite3_errmsg(restorer_));
  int64_t version = sqlite3_column_int64(statement, 0);
  sqlite3_finalize(statement);
  return version;
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
