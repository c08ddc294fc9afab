#include "runtime/agent/ServerReports.h"

#include "runtime/agent/AgentLog.h"
#include "server/RuntimeSpool.h"

#include <set>

namespace gpurace::rt {

ServerReports::ServerReports(const ClientOptions &client,
                             v1::RunMetadata metadata, std::string spool_dir,
                             uint32_t batch)
    : client_(std::make_unique<RaceClient>(client)),
      metadata_(std::move(metadata)), spool_dir_(std::move(spool_dir)),
      batch_(batch) {}

void ServerReports::add(const v1::RuntimeReport &report) {
  std::lock_guard<std::mutex> lock(mutex_);
  v1::ReportRuntimeRequest request;
  // The report's id keys the upload: a report spooled after a batch the
  // server half-stored is not stored twice.
  request.set_upload_id(report.report_id());
  *request.mutable_metadata() = metadata_;
  *request.mutable_report() = report;
  pending_.push_back(std::move(request));
  if (pending_.size() >= batch_)
    flush();
}

void ServerReports::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  flush();
}

void ServerReports::flush() {
  if (pending_.empty())
    return;
  std::vector<v1::ReportRuntimeRequest> batch;
  batch.swap(pending_);
  if (server_failed_) {
    spool(batch);
    return;
  }
  RuntimeUploadOutcome outcome = client_->reportRuntime(batch);
  std::set<std::string> acknowledged(outcome.acknowledged.begin(),
                                     outcome.acknowledged.end());
  std::vector<v1::ReportRuntimeRequest> rest;
  for (v1::ReportRuntimeRequest &request : batch)
    if (acknowledged.count(request.upload_id()))
      ++sent_;
    else
      rest.push_back(std::move(request));
  if (!outcome.status.ok()) {
    server_failed_ = true;
    agentMessage("warning: " + outcome.status.message +
                 "; reports are spooled to " + spool_dir_ +
                 " (send them with gpurace upload --spool " + spool_dir_ + ")");
  }
  spool(rest);
}

void ServerReports::spool(const std::vector<v1::ReportRuntimeRequest> &requests) {
  for (const v1::ReportRuntimeRequest &request : requests) {
    Status s = spoolReport(spool_dir_, request);
    if (s.ok())
      ++spooled_;
    else if (dropped_++ == 0)
      agentMessage("error: " + s.message + "; the report is lost");
  }
}

void ServerReports::count(AgentSummary &summary) const {
  std::lock_guard<std::mutex> lock(mutex_);
  summary.reports_sent += sent_;
  summary.reports_spooled += spooled_;
  summary.reports_dropped += dropped_;
}

} // namespace gpurace::rt
