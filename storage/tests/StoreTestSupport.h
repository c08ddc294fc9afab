// Fixtures for storage tests: a store on a fresh SQLite file in a temporary
// directory, and small uploads to feed it.
#ifndef GPURACE_STORAGE_TESTS_STORETESTSUPPORT_H
#define GPURACE_STORAGE_TESTS_STORETESTSUPPORT_H

#include "storage/SqliteRaceStore.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
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

std::unique_ptr<SqliteRaceStore> openStore(const std::string &path);

// The races of a project (and branch), keyed by fingerprint.
std::map<std::string, v1::Race> racesByFingerprint(RaceStore &store,
                                                   const std::string &branch);

} // namespace gpurace::testing

#endif
