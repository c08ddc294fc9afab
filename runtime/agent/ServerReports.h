//===- ServerReports.h - reports to the server, or to the spool -*- C++ -*-===//
//
// Reports are streamed to the server in batches (one ReportRuntime call per
// batch, under a deadline). Whatever the server did not acknowledge goes to
// the spool directory, and once the server failed, later batches go there
// directly: a run never waits on a dead server more than once.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_AGENT_SERVERREPORTS_H
#define GPURACE_RUNTIME_AGENT_SERVERREPORTS_H

#include "runtime/agent/ReportSink.h"
#include "server/RaceClient.h"

#include <memory>
#include <mutex>

namespace gpurace::rt {

class ServerReports : public ReportSink {
public:
  ServerReports(const ClientOptions &client, v1::RunMetadata metadata,
                std::string spool_dir, uint32_t batch);
  void add(const v1::RuntimeReport &report) override;
  void finish() override;
  void count(AgentSummary &summary) const override;

private:
  void flush();
  void spool(const std::vector<v1::ReportRuntimeRequest> &requests);

  std::unique_ptr<RaceClient> client_;
  v1::RunMetadata metadata_;
  std::string spool_dir_;
  uint32_t batch_;
  bool server_failed_ = false;
  mutable std::mutex mutex_;
  std::vector<v1::ReportRuntimeRequest> pending_;
  uint64_t sent_ = 0, spooled_ = 0, dropped_ = 0;
};

} // namespace gpurace::rt

#endif
