// Fixtures for storage tests: a store on a fresh SQLite file in a temporary
// directory or on a fresh database of a private PostgreSQL server, and
// small uploads to feed it.
#ifndef GPURACE_STORAGE_TESTS_STORETESTSUPPORT_H
#define GPURACE_STORAGE_TESTS_STORETESTSUPPORT_H

#include "storage/SqlRaceStore.h"
#include "storage/tests/PostgresCluster.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpurace::testing {

class TempDir {
public:
  TempDir();
  ~TempDir();
  std::string path(const std::string &name) const { return dir_ + "/" + name; }

private:
  std::string dir_;
};

// A candidate between two sites of `kernel` in `file`.
v1::RaceCandidate candidate(const std::string &fingerprint,
                            const std::string &kernel = "reduce",
                            const std::string &file = "src/reduce.cu");

v1::UploadAnalysisRequest
analysisUpload(const std::vector<v1::RaceCandidate> &candidates,
               const std::string &commit, const std::string &branch = "main",
               const std::string &project = "demo", bool full = true);

v1::ReportRuntimeRequest runtimeReport(const std::string &upload_id,
                                       const std::vector<std::string> &fps,
                                       const std::string &branch = "main",
                                       const std::string &project = "demo");

std::unique_ptr<SqlRaceStore> openStore(const std::string &db);

enum class Backend { kSqlite, kPostgres };
std::string backendName(const ::testing::TestParamInfo<Backend> &info);
// Names the backend in test listings (ctest's test names).
void PrintTo(Backend backend, std::ostream *out);

// The --db setting of a fresh, empty database on `backend`; nullopt when
// PostgreSQL is not available here (the caller skips).
std::optional<std::string> freshDatabase(Backend backend, const TempDir &dir);

// Each test of a suite derived from this runs on both backends
// (INSTANTIATE_BACKEND_TESTS), on a store of its own.
class StoreTest : public ::testing::TestWithParam<Backend> {
protected:
  void SetUp() override;

  TempDir dir;
  std::string db;
  std::unique_ptr<SqlRaceStore> store;
};

// A test on a fresh PostgreSQL database, `url`; skipped, saying why, where
// PostgreSQL is not available.
class PostgresTest : public ::testing::Test {
protected:
  void SetUp() override;

  PostgresCluster *cluster = nullptr;
  std::string url;
};

#define INSTANTIATE_BACKEND_TESTS(Suite)                                       \
  INSTANTIATE_TEST_SUITE_P(                                                    \
      Backends, Suite,                                                         \
      ::testing::Values(::gpurace::testing::Backend::kSqlite,                  \
                        ::gpurace::testing::Backend::kPostgres),               \
      ::gpurace::testing::backendName)

// The races of a project (and branch), keyed by fingerprint.
std::map<std::string, v1::Race> racesByFingerprint(RaceStore &store,
                                                   const std::string &branch);

} // namespace gpurace::testing

#endif
