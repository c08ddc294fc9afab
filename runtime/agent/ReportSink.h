//===- ReportSink.h - where the reports of checked launches go --*- C++ -*-===//
//
// A report is handed to every configured sink as soon as its launch was
// checked: the report file, the server (in batches, spooled when it is
// unreachable) and the race lines on stderr. A sink never throws; what it
// could not deliver it prints and counts.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_AGENT_REPORTSINK_H
#define GPURACE_RUNTIME_AGENT_REPORTSINK_H

#include "gpurace/v1/runtime.pb.h"
#include "runtime/agent/AgentSummary.h"

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gpurace::rt {

class ReportSink {
public:
  virtual ~ReportSink() = default;
  virtual void add(const v1::RuntimeReport &report) = 0;
  // The program is exiting: deliver what is pending.
  virtual void finish() {}
  // Adds what this sink delivered (or failed to) to `summary`.
  virtual void count(AgentSummary &summary) const {}
};

// Appends one RuntimeReport per line (compact proto3 JSON) and flushes each,
// so a program that crashes later loses no report already written.
class ReportFile : public ReportSink {
public:
  explicit ReportFile(const std::string &path);
  ~ReportFile() override;
  void add(const v1::RuntimeReport &report) override;
  void count(AgentSummary &summary) const override;

private:
  std::string path_;
  std::FILE *file_ = nullptr;
  mutable std::mutex mutex_;
  uint64_t dropped_ = 0;
};

// One line per confirmed race or unchecked launch on stderr.
class RaceLog : public ReportSink {
public:
  void add(const v1::RuntimeReport &report) override;
};

// "gpurace: race in shift: write a[i] at f.cu:5:5 / read a[i + 1] at
// f.cu:5:12 (inter-block), thread (63,0,0) of block (0,0,0) and thread
// (0,0,0) of block (1,0,0)".
std::string describeRace(const v1::RuntimeReport &report,
                         const v1::ObservedRace &race);

// Hands each report to all of `sinks`.
class SinkSet : public ReportSink {
public:
  void addSink(std::unique_ptr<ReportSink> sink);
  void add(const v1::RuntimeReport &report) override;
  void finish() override;
  void count(AgentSummary &summary) const override;

private:
  std::vector<std::unique_ptr<ReportSink>> sinks_;
};

} // namespace gpurace::rt

#endif
