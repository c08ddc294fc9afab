#include "storage/Validation.h"

#include <google/protobuf/util/time_util.h>

#include <cmath>

namespace gpurace::storage {

namespace {

constexpr size_t kMaxNameLength = 256;

Status checkMetadata(const v1::RunMetadata &metadata) {
  if (metadata.project().empty())
    return Status::invalid("metadata.project: required");
  if (metadata.project().size() > kMaxNameLength)
    return Status::invalid("metadata.project: longer than 256 characters");
  if (metadata.branch().size() > kMaxNameLength)
    return Status::invalid("metadata.branch: longer than 256 characters");
  if (metadata.commit().size() > kMaxNameLength)
    return Status::invalid("metadata.commit: longer than 256 characters");
  return {};
}

// Versioned fingerprints only: a "v2:" race must never merge with a "v1:"
// one, and an empty fingerprint would merge every race.
Status checkFingerprint(const std::string &fingerprint,
                        const std::string &field) {
  if (fingerprint.size() < 4 || fingerprint.compare(0, 3, "v1:") != 0)
    return Status::invalid(field + ": expected \"v1:<hex>\", got \"" +
                           fingerprint.substr(0, 64) + "\"");
  return {};
}

// What google.protobuf.Timestamp allows (years 1 to 9999). A report's
// time is turned into microseconds, which a larger one overflows.
Status checkTimestamp(const google::protobuf::Timestamp &time,
                      const std::string &field) {
  using google::protobuf::util::TimeUtil;
  if (time.seconds() < TimeUtil::kTimestampMinSeconds ||
      time.seconds() > TimeUtil::kTimestampMaxSeconds || time.nanos() < 0 ||
      time.nanos() > 999999999)
    return Status::invalid(field + ": not a time between the years 1 and "
                                   "9999");
  return {};
}

} // namespace

Status validateUpload(const v1::UploadAnalysisRequest &request) {
  if (Status s = checkMetadata(request.metadata()); !s.ok())
    return s;
  if (!request.has_result())
    return Status::invalid("result: required");
  const auto &candidates = request.result().candidates();
  for (int i = 0; i < candidates.size(); ++i) {
    std::string field = "result.candidates[" + std::to_string(i) + "]";
    if (Status s = checkFingerprint(candidates[i].fingerprint(),
                                    field + ".fingerprint");
        !s.ok())
      return s;
    if (candidates[i].race_class() == v1::RACE_CLASS_UNSPECIFIED)
      return Status::invalid(field + ".race_class: required");
    // Races are sorted by score; SQLite stores a NaN as NULL.
    if (!std::isfinite(candidates[i].score()))
      return Status::invalid(field + ".score: not a finite number");
  }
  const auto &perf = request.result().perf_findings();
  for (int i = 0; i < perf.size(); ++i) {
    std::string field = "result.perf_findings[" + std::to_string(i) + "]";
    if (perf[i].fingerprint().empty())
      return Status::invalid(field + ".fingerprint: required");
    if (perf[i].kind() == v1::PERF_KIND_UNSPECIFIED)
      return Status::invalid(field + ".kind: required");
  }
  return {};
}

Status validateRuntimeReport(const v1::ReportRuntimeRequest &request) {
  if (request.upload_id().empty())
    return Status::invalid("upload_id: required for runtime reports");
  if (Status s = checkMetadata(request.metadata()); !s.ok())
    return s;
  if (Status s = checkTimestamp(request.report().observed_at(),
                                "report.observed_at");
      !s.ok())
    return s;
  const auto &races = request.report().races();
  for (int i = 0; i < races.size(); ++i) {
    std::string field = "report.races[" + std::to_string(i) + "]";
    if (Status s = checkFingerprint(races[i].fingerprint(),
                                    field + ".fingerprint");
        !s.ok())
      return s;
  }
  return {};
}

} // namespace gpurace::storage
