//===- Queries.h - reading races, runs and trends ---------------*- C++ -*-===//
//
// Read-only functions over the schema, each answering one request of
// service.proto. Invalid requests (unknown sort key, bad page token, page
// too large, unknown baseline) throw StatusError naming the field.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_STORAGE_QUERIES_H
#define GPURACE_STORAGE_QUERIES_H

#include "gpurace/v1/service.pb.h"
#include "storage/SqlConnection.h"

namespace gpurace::storage {

struct PageLimits {
  uint32_t default_size = 50;
  uint32_t max_size = 1000;
  // A list counts the races it matches up to this many past its page's
  // first row, and says when it stopped there.
  uint32_t count_limit = 1000;
};

// Occurrences returned with one race: the newest ones.
constexpr int kOccurrencesPerRace = 100;

v1::ListRacesResponse listRaces(sql::Connection &db,
                                const v1::ListRacesRequest &request,
                                const PageLimits &limits);
v1::Race getRace(sql::Connection &db, const v1::GetRaceRequest &request);
v1::Summary getSummary(sql::Connection &db,
                       const v1::GetSummaryRequest &request);
v1::GetRaceHistoryResponse
getRaceHistory(sql::Connection &db, const v1::GetRaceHistoryRequest &request);

v1::ListProjectsResponse listProjects(sql::Connection &db);
v1::ListRunsResponse listRuns(sql::Connection &db,
                              const v1::ListRunsRequest &request,
                              const PageLimits &limits);
v1::RunDetail getRun(sql::Connection &db, const v1::GetRunRequest &request);
v1::GetTrendResponse getTrend(sql::Connection &db,
                              const v1::GetTrendRequest &request);

// Page tokens are opaque to clients; inside they are row offsets.
uint32_t pageSize(uint32_t requested, const PageLimits &limits);
int64_t pageOffset(const std::string &token);
std::string nextPageToken(int64_t offset, size_t returned, uint32_t size,
                          int64_t total);

} // namespace gpurace::storage

#endif
