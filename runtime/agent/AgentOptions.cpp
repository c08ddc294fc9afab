#include "runtime/agent/AgentOptions.h"

#include "runtime/device/RecordLayout.h"
#include "server/RuntimeSpool.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace gpurace::rt {

namespace {

bool parseUnsigned(const std::string &text, uint64_t &value) {
  if (text.empty() || text[0] == '-' || text[0] == '+')
    return false;
  errno = 0;
  char *end = nullptr;
  value = std::strtoull(text.c_str(), &end, 10);
  return errno == 0 && end != text.c_str() && *end == '\0';
}

std::string applySize(const std::string &text, uint64_t &bytes) {
  std::string digits = text;
  uint64_t scale = 1;
  if (!digits.empty()) {
    switch (digits.back()) {
    case 'K': case 'k': scale = 1ull << 10; break;
    case 'M': case 'm': scale = 1ull << 20; break;
    case 'G': case 'g': scale = 1ull << 30; break;
    default: break;
    }
    if (scale != 1)
      digits.pop_back();
  }
  uint64_t count = 0;
  if (!parseUnsigned(digits, count) || count > (1ull << 40) / scale)
    return "expected a size in bytes such as 65536, 64M or 1G";
  bytes = count * scale;
  if (bytes < recordBufferBytes(1))
    return "too small: a buffer needs at least " +
           std::to_string(recordBufferBytes(1)) + " bytes for one record";
  return "";
}

template <uint32_t Min, uint32_t Max>
std::string applyCount(const std::string &text, uint32_t &out) {
  uint64_t value = 0;
  if (!parseUnsigned(text, value) || value < Min || value > Max)
    return "expected a whole number from " + std::to_string(Min) + " to " +
           std::to_string(Max);
  out = uint32_t(value);
  return "";
}

std::vector<std::string> splitList(const std::string &text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty())
      items.push_back(item);
  return items;
}

#define GPURACE_STRING_OPTION(field)                                           \
  [](const std::string &v, AgentOptions &o) {                                  \
    o.field = v;                                                               \
    return std::string();                                                      \
  }

const std::vector<AgentOption> kTable = {
    {"GPURACE_PLAN", "--plan", "",
     "instrumentation plan (gpurace analyze --plan) the program was "
     "instrumented with; maps recorded site numbers to source sites and "
     "fingerprints. Without it sites are reported by number",
     GPURACE_STRING_OPTION(plan)},
    {"GPURACE_SOURCE_ROOT", "--root", "",
     "project root: reported sites name their files relative to it, as "
     "gpurace analyze records them (gpurace run's default: the top level of "
     "the git work tree around the working directory)",
     GPURACE_STRING_OPTION(source_root)},
    {"GPURACE_REPORT", "--report", "",
     "file the reports are appended to, one RuntimeReport JSON per line and "
     "checked launch",
     GPURACE_STRING_OPTION(report_file)},
    {"GPURACE_SERVER", "--server", "",
     "gRPC address of the race server; reports are streamed to it in batches",
     GPURACE_STRING_OPTION(server)},
    {"GPURACE_TOKEN", "--token", "", "API token for the server (store role)",
     GPURACE_STRING_OPTION(token)},
    {"GPURACE_TLS_CA", "--tls-ca", "",
     "PEM file of the CA that signed the server's certificate; turns on TLS",
     GPURACE_STRING_OPTION(tls_ca)},
    {"GPURACE_PROJECT", "--project", "",
     "project the reports belong to; required with GPURACE_SERVER",
     GPURACE_STRING_OPTION(project)},
    {"GPURACE_COMMIT", "--commit", "", "commit the program was built from",
     GPURACE_STRING_OPTION(commit)},
    {"GPURACE_BRANCH", "--branch", "", "branch the program was built from",
     GPURACE_STRING_OPTION(branch)},
    {"GPURACE_SPOOL_DIR", "--spool", "",
     "where reports wait when the server is unreachable (default: "
     "$XDG_CACHE_HOME/gpurace/spool, else ~/.cache/gpurace/spool); "
     "`gpurace upload --spool DIR` sends them",
     [](const std::string &v, AgentOptions &o) {
       o.spool_dir = v.empty() ? defaultSpoolDirectory() : v;
       return std::string();
     }},
    {"GPURACE_BATCH", nullptr, "32", "reports per gRPC batch",
     [](const std::string &v, AgentOptions &o) {
       return applyCount<1, 4096>(v, o.batch);
     }},
    {"GPURACE_SERVER_TIMEOUT", nullptr, "10",
     "seconds one batch may take before the reports are spooled instead",
     [](const std::string &v, AgentOptions &o) {
       return applyCount<1, 3600>(v, o.server_timeout_s);
     }},
    {"GPURACE_BUFFER_SIZE", "--buffer-size", "64M",
     "device memory for the records of one launch (K, M, G suffixes); "
     "records that do not fit are counted as lost coverage",
     [](const std::string &v, AgentOptions &o) {
       return applySize(v, o.buffer_bytes);
     }},
    {"GPURACE_KERNELS", "--kernels", "",
     "comma-separated kernel names to check (shell globs allowed); empty: "
     "every instrumented kernel",
     [](const std::string &v, AgentOptions &o) {
       o.kernels = splitList(v);
       return std::string();
     }},
    {"GPURACE_QUIET", nullptr, "0",
     "1: print no line per confirmed race on stderr",
     [](const std::string &v, AgentOptions &o) {
       if (v != "0" && v != "1")
         return std::string("expected 0 or 1");
       o.quiet = v == "1";
       return std::string();
     }},
    {"GPURACE_SUMMARY_FILE", nullptr, "",
     "file the agent writes its counts to when the program exits (gpurace "
     "run sets it)",
     GPURACE_STRING_OPTION(summary_file)},
};

#undef GPURACE_STRING_OPTION

} // namespace

const std::vector<AgentOption> &agentOptionTable() { return kTable; }

bool parseAgentOptions(const EnvironmentLookup &lookup, AgentOptions &options,
                       std::string &error) {
  for (const AgentOption &option : kTable) {
    const char *set = lookup(option.variable);
    std::string value = set && *set ? set : option.default_value;
    if (std::string problem = option.apply(value, options); !problem.empty()) {
      error = std::string(option.variable) + "=" + value + ": " + problem;
      return false;
    }
  }
  if (!options.server.empty() && options.project.empty()) {
    error = "GPURACE_PROJECT: required when GPURACE_SERVER is set";
    return false;
  }
  return true;
}

namespace {

// Help text indented and wrapped at word boundaries.
void printWrapped(std::ostream &out, const std::string &text, size_t indent,
                  size_t width) {
  std::istringstream words(text);
  std::string word;
  size_t column = width;
  while (words >> word) {
    if (column + 1 + word.size() > width) {
      out << "\n" << std::string(indent, ' ') << word;
      column = indent + word.size();
    } else {
      out << ' ' << word;
      column += 1 + word.size();
    }
  }
  out << "\n";
}

} // namespace

std::string agentOptionsHelp() {
  std::ostringstream out;
  out << "Agent options (environment variables; a `gpurace run` flag sets "
         "the one it names):\n";
  for (const AgentOption &option : kTable) {
    out << "  " << option.variable;
    if (option.run_flag)
      out << " (" << option.run_flag << ")";
    if (*option.default_value)
      out << " [default: " << option.default_value << "]";
    printWrapped(out, option.help, 6, 78);
  }
  return out.str();
}

} // namespace gpurace::rt
