#include "server/cli/SpoolUpload.h"

#include "common/Subcommand.h"
#include "server/RuntimeSpool.h"
#include "server/cli/Commands.h"

#include <cstdio>
#include <iostream>
#include <set>

namespace gpurace {

namespace {

// Reports per ReportRuntime call: a batch the server half-stored costs at
// most this many resends.
constexpr size_t kBatch = 64;

struct SpoolTally {
  size_t sent = 0;
  uint32_t races_confirmed = 0;
};

// Sends `batch` and removes the acknowledged files; returns the error that
// ended the stream, if any.
Status sendBatch(RaceClient &client, const std::vector<SpooledReport> &batch,
                 SpoolTally &tally) {
  std::vector<v1::ReportRuntimeRequest> requests;
  for (const SpooledReport &report : batch)
    requests.push_back(report.request);
  RuntimeUploadOutcome outcome = client.reportRuntime(requests);
  std::set<std::string> acknowledged(outcome.acknowledged.begin(),
                                     outcome.acknowledged.end());
  for (const SpooledReport &report : batch)
    if (acknowledged.count(report.request.upload_id()) &&
        std::remove(report.path.c_str()) == 0)
      ++tally.sent;
  tally.races_confirmed += outcome.races_confirmed;
  return outcome.status;
}

} // namespace

int uploadSpool(const std::string &dir, ClientOptions client_options) {
  std::vector<std::string> problems;
  std::vector<SpooledReport> reports = readSpool(dir, problems);
  for (const std::string &problem : problems)
    std::cerr << "gpurace upload: warning: " << problem << "\n";
  applyClientEnvironment(client_options);
  RaceClient client(client_options);
  SpoolTally tally;
  Status status;
  for (size_t at = 0; at < reports.size() && status.ok(); at += kBatch) {
    std::vector<SpooledReport> batch(
        reports.begin() + at, reports.begin() + std::min(reports.size(), at + kBatch));
    status = sendBatch(client, batch, tally);
  }
  std::cout << "gpurace upload: " << tally.sent << " of " << reports.size()
            << " spooled runtime reports sent from " << dir << ", "
            << tally.races_confirmed << " races newly confirmed\n";
  if (!status.ok())
    return reportError("upload", status);
  if (tally.sent < reports.size())
    return reportError("upload", Status::internal(std::to_string(reports.size() - tally.sent) +
                                                  " reports could not be removed from " + dir));
  return tally.races_confirmed > 0 ? kExitFindings : kExitOk;
}

} // namespace gpurace
