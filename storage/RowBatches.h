//===- RowBatches.h - many rows per statement, for ingest -------*- C++ -*-===//
//
// A batch of runtime reports carries thousands of observations. Statement by
// statement that is several round trips per observation, which bounds a
// PostgreSQL server's ingest by its latency rather than its throughput;
// these functions read and write the rows of a whole batch in a few
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

// The stored responses of earlier uploads among `upload_ids`, by id.
std::map<std::string, std::string>
findUploads(sql::Connection &db, const std::vector<std::string> &upload_ids);

struct UploadRow {
  std::string upload_id;
  int64_t run = 0;
  std::string response;
};
void recordUploads(sql::Connection &db, const std::vector<UploadRow> &uploads);

// The stored races of a project among `fingerprints`, keyed by fingerprint.
std::map<std::string, StoredRace>
findRaces(sql::Connection &db, int64_t project_id,
          const std::vector<std::string> &fingerprints);

// New races of one project, each fingerprint once; returns their ids in
// the candidates' order. A candidate marked as intentional in its source
// starts with that review state.
std::vector<int64_t>
insertRaces(sql::Connection &db, int64_t project_id,
            const std::vector<v1::RaceCandidate> &candidates, int64_t now);

// The (race, candidate) pairs' candidates, from the latest analysis.
void updateRaceCandidates(
    sql::Connection &db,
    const std::vector<std::pair<int64_t, v1::RaceCandidate>> &races);

// Marks the races confirmed (seen at run time).
void confirmRaces(sql::Connection &db, const std::vector<int64_t> &races);

// A runtime run and what it saw: `added` races new or reopened on its
// branch among the `seen` distinct ones.
struct RuntimeRunRow {
  int64_t project = 0;
  const v1::RunMetadata *metadata = nullptr;
  uint32_t added = 0, seen = 0;
};
// Inserts the runs; returns their ids in the rows' order.
std::vector<int64_t> insertRuntimeRuns(sql::Connection &db,
                                       const std::vector<RuntimeRunRow> &runs,
                                       int64_t now);

// The races' states on `branch`; a race the branch never saw is absent.
std::map<int64_t, v1::DetectionState>
branchStates(sql::Connection &db, const std::string &branch,
             const std::vector<int64_t> &races);

// The (race, state) pairs' states on `branch`; each race once.
void setBranchStates(
    sql::Connection &db, const std::string &branch,
    const std::vector<std::pair<int64_t, v1::DetectionState>> &states);
// Each race's latest detection state on any branch; each race once.
void setLatestStates(
    sql::Connection &db,
    const std::vector<std::pair<int64_t, v1::DetectionState>> &states);

struct RunRaceRow {
  int64_t run = 0, race = 0;
  v1::DetectionState state = v1::DETECTION_STATE_UNSPECIFIED;
};
// What each run did to each race: one row per (run, race), which no
// earlier call recorded (a repeat fails the transaction).
void recordRunRaces(sql::Connection &db, const std::vector<RunRaceRow> &rows);

struct OccurrenceRow {
  int64_t race = 0, run = 0;
  v1::Occurrence occurrence;
};
// An occurrence per row, in order; each race's counters move once.
void addOccurrences(sql::Connection &db, int64_t now,
                    const std::vector<OccurrenceRow> &occurrences);

} // namespace gpurace::storage

#endif
