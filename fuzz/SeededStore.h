//===- SeededStore.h - a small race database for every input ---*- C++ -*-===//
//
// The service fuzz targets run every input against the same database: two
// analysis runs and a runtime report of project "demo" on branch "main"
// (races 1 to 4, run-1 to run-3, a review of race 1), in a SQLite file of a
// private folder. After an input that committed anything, the seeded pages
// are copied back over the file (SQLite's backup API, through a connection
// of its own), so that no input sees what an earlier one stored and a
// reproducer replays alone. The store's own connections stay open, with
// their prepared statements.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_FUZZ_SEEDEDSTORE_H
#define GPURACE_FUZZ_SEEDEDSTORE_H

#include "storage/RaceStore.h"

#include <memory>
#include <string>

struct sqlite3;

namespace gpurace::fuzz {

class SeededStore {
public:
  // Aborts when the database cannot be built: the target cannot run then.
  SeededStore();
  ~SeededStore();
  SeededStore(const SeededStore &) = delete;
  SeededStore &operator=(const SeededStore &) = delete;

  RaceStore &store() { return *store_; }
  // Back to the seeded state, before the next input.
  void reset();

private:
  int64_t dataVersion();

  // The seeded database, in memory.
  sqlite3 *seeded_ = nullptr;
  // The file's connection that restores it.
  sqlite3 *restorer_ = nullptr;
  // PRAGMA data_version after the last restore: another connection's
  // commit changes it.
  int64_t version_ = 0;
  std::unique_ptr<RaceStore> store_;
};

// A private folder, removed at exit, that holds the database; targets may
// keep files of their own there.
const std::string &scratchDirectory();

} // namespace gpurace::fuzz

#endif
