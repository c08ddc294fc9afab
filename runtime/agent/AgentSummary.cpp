#include "runtime/agent/AgentSummary.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace gpurace::rt {

namespace {

// Every counter with its key, so that writing and reading cannot disagree.
std::map<std::string, uint64_t AgentSummary::*> counters() {
  return {{"instrumented_modules", &AgentSummary::instrumented_modules},
          {"launches_checked", &AgentSummary::launches_checked},
          {"launches_disabled", &AgentSummary::launches_disabled},
          {"races", &AgentSummary::races},
          {"records_lost", &AgentSummary::records_lost},
          {"reports_sent", &AgentSummary::reports_sent},
          {"reports_spooled", &AgentSummary::reports_spooled},
          {"reports_dropped", &AgentSummary::reports_dropped}};
}

std::string plural(uint64_t n, const std::string &word) {
  std::string suffix = word.back() == 'h' ? "es" : "s";
  return std::to_string(n) + " " + word + (n == 1 ? "" : suffix);
}

} // namespace

bool writeAgentSummary(const std::string &path, const AgentSummary &summary) {
  std::ofstream out(path, std::ios::trunc);
  for (const auto &[key, field] : counters())
    out << key << "=" << summary.*field << "\n";
  if (!summary.startup_error.empty())
    out << "startup_error=" << summary.startup_error << "\n";
  return bool(out.flush());
}

std::optional<AgentSummary> readAgentSummary(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    return std::nullopt;
  AgentSummary summary;
  auto fields = counters();
  bool any = false;
  std::string line;
  while (std::getline(in, line)) {
    size_t eq = line.find('=');
    if (eq == std::string::npos)
      continue;
    std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    any = true;
    if (key == "startup_error")
      summary.startup_error = value;
    else if (auto field = fields.find(key); field != fields.end())
      summary.*(field->second) = std::strtoull(value.c_str(), nullptr, 10);
  }
  if (!any)
    return std::nullopt;
  return summary;
}

std::string describe(const AgentSummary &s) {
  std::ostringstream out;
  out << plural(s.launches_checked, "launch") << " checked, "
      << plural(s.races, "race") << " confirmed";
  if (s.launches_disabled)
    out << ", " << plural(s.launches_disabled, "launch")
        << " not checked (see the reports)";
  if (s.records_lost)
    out << ", " << plural(s.records_lost, "record")
        << " lost to full buffers (raise GPURACE_BUFFER_SIZE)";
  if (s.reports_sent)
    out << ", " << plural(s.reports_sent, "report") << " sent";
  if (s.reports_spooled)
    out << ", " << plural(s.reports_spooled, "report")
        << " spooled (server unreachable; send with gpurace upload --spool)";
  if (s.reports_dropped)
    out << ", " << plural(s.reports_dropped, "report") << " lost";
  return out.str();
}

} // namespace gpurace::rt
