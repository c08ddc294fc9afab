//===- HttpQuery.h - HTTP query strings to request messages -----*- C++ -*-===//
//
// The HTTP API takes filters as query parameters with short, lower-case
// enum names ("status=confirmed,potential", "class=inter-block"); the full
// proto names ("RACE_STATUS_CONFIRMED") are accepted too. An unknown
// parameter or value is an error naming it.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_SERVER_HTTPQUERY_H
#define GPURACE_SERVER_HTTPQUERY_H

#include "gpurace/v1/service.pb.h"
#include "storage/Status.h"

#include <google/protobuf/descriptor.h>

#include <map>
#include <string>

namespace gpurace {

using QueryParams = std::multimap<std::string, std::string>;

// "RACE_CLASS_INTER_BLOCK" -> "inter-block".
std::string shortEnumName(const google::protobuf::EnumValueDescriptor &value);
// The enum value named `name` (short or full), or -1.
int parseEnumName(const google::protobuf::EnumDescriptor &type,
                  const std::string &name);

Result<v1::ListRacesRequest> listRacesRequest(const QueryParams &params);
Result<v1::ListRunsRequest> listRunsRequest(const QueryParams &params);
Result<v1::GetSummaryRequest> summaryRequest(const QueryParams &params);
Result<v1::GetTrendRequest> trendRequest(const QueryParams &params);
Result<v1::GetRunRequest> getRunRequest(const std::string &run_id, const QueryParams &params);

} // namespace gpurace

#endif
