#include "runtime/agent/ReportSink.h"

#include "proto/JsonCodec.h"
#include "runtime/agent/AgentLog.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <sstream>

namespace gpurace::rt {

ReportFile::ReportFile(const std::string &path) : path_(path) {
  file_ = std::fopen(path.c_str(), "a");
  if (!file_)
    agentMessage("error: cannot open the report file " + path + ": " +
                 std::strerror(errno) + "; reports are not written to it");
}

ReportFile::~ReportFile() {
  if (file_)
    std::fclose(file_);
}

void ReportFile::add(const v1::RuntimeReport &report) {
  JsonWriteOptions compact;
  compact.pretty = false;
  std::string line = toJson(report, compact) + "\n";
  std::lock_guard<std::mutex> lock(mutex_);
  if (!file_ || std::fwrite(line.data(), 1, line.size(), file_) != line.size() ||
      std::fflush(file_) != 0) {
    if (file_ && dropped_ == 0)
      agentMessage("error: cannot write to the report file " + path_);
    ++dropped_;
  }
}

void ReportFile::count(AgentSummary &summary) const {
  std::lock_guard<std::mutex> lock(mutex_);
  summary.reports_dropped += dropped_;
}

namespace {

// "RACE_CLASS_INTER_BLOCK" -> "inter-block".
std::string enumWord(std::string name, const std::string &prefix) {
  if (name.rfind(prefix, 0) == 0)
    name = name.substr(prefix.size());
  for (char &c : name)
    c = c == '_' ? '-' : char(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

std::string where(const v1::AccessSite &site) {
  std::ostringstream out;
  out << (site.kind() == v1::ACCESS_KIND_UNSPECIFIED
              ? "access"
              : enumWord(v1::AccessKind_Name(site.kind()), "ACCESS_KIND_"))
      << " " << (site.expression().empty() ? site.site_id() : site.expression());
  if (!site.location().file().empty())
    out << " at " << site.location().file() << ":" << site.location().line()
        << ":" << site.location().column();
  return out.str();
}

std::string thread(const v1::ThreadCoord &c) {
  std::ostringstream out;
  out << "thread (" << c.thread_idx().x() << "," << c.thread_idx().y() << ","
      << c.thread_idx().z() << ") of block (" << c.block_idx().x() << ","
      << c.block_idx().y() << "," << c.block_idx().z() << ")";
  return out.str();
}

} // namespace

std::string describeRace(const v1::RuntimeReport &report,
                         const v1::ObservedRace &race) {
  return "race in " + report.launch().kernel() + ": " + where(race.first()) +
         " / " + where(race.second()) + " (" + enumWord(v1::RaceClass_Name(race.race_class()), "RACE_CLASS_") +
         "), " + thread(race.witness().first()) + " and " +
         thread(race.witness().second());
}

void RaceLog::add(const v1::RuntimeReport &report) {
  if (report.coverage().checking_disabled())
    agentMessage("launch " + std::to_string(report.launch().launch_id()) +
                 " of " + report.launch().kernel() +
                 " not checked: " + report.coverage().disabled_reason());
  for (const v1::ObservedRace &race : report.races())
    agentMessage(describeRace(report, race));
}

void SinkSet::addSink(std::unique_ptr<ReportSink> sink) {
  sinks_.push_back(std::move(sink));
}

void SinkSet::add(const v1::RuntimeReport &report) {
  for (auto &sink : sinks_)
    sink->add(report);
}

void SinkSet::finish() {
  for (auto &sink : sinks_)
    sink->finish();
}

void SinkSet::count(AgentSummary &summary) const {
  for (const auto &sink : sinks_)
    sink->count(summary);
}

} // namespace gpurace::rt
