//===- RaceRows.h - rows of the race schema, read and written ---*- C++ -*-===//
//
// The single place that knows how races, runs and occurrences map to
// columns. Ingest and queries are written in terms of these functions.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_STORAGE_RACEROWS_H
#define GPURACE_STORAGE_RACEROWS_H

#include "gpurace/v1/service.pb.h"
#include "storage/SqlConnection.h"

#include <cstdint>
#include <optional>
#include <string>

namespace gpurace::storage {

int64_t nowMicros();
google::protobuf::Timestamp toTimestamp(int64_t micros);

// "run-<id>" and back; nullopt for anything else.
std::string publicRunId(int64_t id);
std::optional<int64_t> parseRunId(const std::string &run_id);

// Throws StatusError(INVALID_ARGUMENT) when the message does not parse.
template <typename Message>
Message parseBlob(const std::string &bytes, const char *what) {
  Message message;
  if (!message.ParseFromString(bytes))
    throw sql::StatusError(
        Status::internal(std::string("stored ") + what + " is corrupt"));
  return message;
}

// Steps an INSERT ... RETURNING id and returns the new row's id.
int64_t insertedId(sql::Statement &insert);

int64_t projectIdFor(sql::Connection &db, const std::string &name);
std::optional<int64_t> findProjectId(sql::Connection &db,
                                     const std::string &name);

int64_t insertRun(sql::Connection &db, int64_t project_id, const char *kind,
                  const v1::RunMetadata &metadata, bool full_analysis,
                  const std::string &tool_version, int64_t now);
void setRunCounts(sql::Connection &db, int64_t run, uint32_t added,
                  uint32_t resolved, uint32_t seen);

// The stored response of an earlier upload with this id.
std::optional<std::string> findUpload(sql::Connection &db,
                                      const std::string &upload_id);
void recordUpload(sql::Connection &db, const std::string &upload_id,
                  int64_t run, const std::string &response);

struct StoredRace {
  int64_t id = 0;
  v1::RaceStatus status = v1::RACE_STATUS_UNSPECIFIED;
};

// Columns of a race, for SELECT lists; readRace reads them from column
// `first` on. The last one is the detection state (overridden by a branch
// state where a query joins one).
extern const char *const kRaceColumns;
// The tables kRaceColumns reads, as r, p, c and k.
extern const char *const kRaceTables;
v1::Race readRace(const sql::Statement &row, int first = 0);

extern const char *const kRunColumns;
v1::Run readRun(const sql::Statement &row, int first = 0);

} // namespace gpurace::storage

#endif
