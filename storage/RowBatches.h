//===- RowBatches.h - many rows per statement, for ingest -------*- C++ -*-===//
//
// A runtime report carries up to thousands of observations. Statement by
// statement that is several round trips per observation, which bounds a
// PostgreSQL server's ingest by its latency rather than its throughput;
// these functions read and write the rows of a whole report in a few
// statements (chunks of at most kRowsPerStatement rows, so that only a
// bounded number of statement texts is prepared).
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_STORAGE_ROWBATCHES_H
#define GPURACE_STORAGE_ROWBATCHES_H

#include "storage/RaceRows.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gpurace::storage {

constexpr size_t kRowsPerStatement = 64;

// The stored races of a project among `fingerprints`, keyed by fingerprint.
std::map<std::string, StoredRace>
findRaces(sql::Connection &db, int64_t project_id,
          const std::vector<std::string> &fingerprints);

// The races' states on `branch`; a race the branch never saw is absent.
std::map<int64_t, v1::DetectionState>
branchStates(sql::Connection &db, const std::string &branch,
             const std::vector<int64_t> &races);

// setBranchState for each (race, state) on `branch`; each race once.
void setBranchStates(
    sql::Connection &db, const std::string &branch,
    const std::vector<std::pair<int64_t, v1::DetectionState>> &states);

// recordRunRace for each (race, state).
void recordRunRaces(
    sql::Connection &db, int64_t run,
    const std::vector<std::pair<int64_t, v1::DetectionState>> &races);

// addOccurrence for each (race, occurrence), in order.
void addOccurrences(
    sql::Connection &db, int64_t run, int64_t now,
    const std::vector<std::pair<int64_t, v1::Occurrence>> &occurrences);

} // namespace gpurace::storage

#endif
