// The agent's environment table: defaults, bad values named by variable,
// the help `gpurace run --help` prints, and the summary file.
#include "runtime/agent/AgentOptions.h"
#include "runtime/agent/AgentSummary.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>

namespace gpurace::rt {
namespace {

struct Parsed {
  bool ok;
  AgentOptions options;
  std::string error;
};

Parsed parse(const std::map<std::string, std::string> &env) {
  Parsed p;
  p.ok = parseAgentOptions(
      [&](const char *name) -> const char * {
        auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
      },
      p.options, p.error);
  return p;
}

TEST(AgentOptions, DefaultsApplyWhenNothingIsSet) {
  Parsed p = parse({});
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.options.buffer_bytes, 64ull << 20);
  EXPECT_EQ(p.options.batch, 32u);
  EXPECT_TRUE(p.options.kernels.empty());
  EXPECT_TRUE(p.options.server.empty());
  EXPECT_NE(p.options.spool_dir.find("gpurace/spool"), std::string::npos);
}

TEST(AgentOptions, ValuesAreReadWithSuffixesAndLists) {
  Parsed p = parse({{"GPURACE_BUFFER_SIZE", "2M"},
                    {"GPURACE_KERNELS", "shift,,tile*"},
                    {"GPURACE_SERVER", "127.0.0.1:1"},
                    {"GPURACE_PROJECT", "demo"},
                    {"GPURACE_QUIET", "1"}});
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.options.buffer_bytes, 2ull << 20);
  EXPECT_EQ(p.options.kernels, (std::vector<std::string>{"shift", "tile*"}));
  EXPECT_TRUE(p.options.quiet);
}

TEST(AgentOptions, BadValuesNameTheVariableAndTheValue) {
  for (const auto &[variable, value] :
       std::vector<std::pair<std::string, std::string>>{
           {"GPURACE_BUFFER_SIZE", "12Q"},
           {"GPURACE_BUFFER_SIZE", "-5M"},
           {"GPURACE_BUFFER_SIZE", "100"},
           {"GPURACE_BATCH", "0"},
           {"GPURACE_SERVER_TIMEOUT", "soon"},
           {"GPURACE_QUIET", "yes"}}) {
    Parsed p = parse({{variable, value}});
    EXPECT_FALSE(p.ok) << variable << "=" << value;
    EXPECT_EQ(p.error.rfind(variable + "=" + value + ": ", 0), 0u) << p.error;
  }
}

TEST(AgentOptions, AServerNeedsAProject) {
  Parsed p = parse({{"GPURACE_SERVER", "127.0.0.1:50551"}});
  EXPECT_FALSE(p.ok);
  EXPECT_NE(p.error.find("GPURACE_PROJECT"), std::string::npos) << p.error;
}

TEST(AgentOptions, HelpListsEveryVariableWithItsFlag) {
  std::string help = agentOptionsHelp();
  for (const AgentOption &option : agentOptionTable()) {
    EXPECT_NE(help.find(option.variable), std::string::npos) << option.variable;
    if (option.run_flag) {
      EXPECT_NE(help.find(std::string("(") + option.run_flag + ")"), std::string::npos);
    }
  }
  EXPECT_NE(help.find("[default: 64M]"), std::string::npos) << help;
}

TEST(AgentSummary, RoundTripsThroughItsFile) {
  std::string path = ::testing::TempDir() + "agent-summary";
  AgentSummary written;
  written.launches_checked = 3;
  written.races = 2;
  written.reports_spooled = 1;
  ASSERT_TRUE(writeAgentSummary(path, written));
  std::optional<AgentSummary> read = readAgentSummary(path);
  ASSERT_TRUE(read);
  EXPECT_EQ(read->launches_checked, 3u);
  EXPECT_EQ(read->races, 2u);
  EXPECT_EQ(read->reports_spooled, 1u);
  EXPECT_EQ(describe(*read).rfind("3 launches checked, 2 races confirmed", 0), 0u)
      << describe(*read);
}

TEST(AgentSummary, AnEmptyFileMeansTheAgentNeverRan) {
  std::string path = ::testing::TempDir() + "agent-summary-empty";
  { std::ofstream(path, std::ios::trunc); }
  EXPECT_FALSE(readAgentSummary(path));
  EXPECT_FALSE(readAgentSummary(path + "-missing"));
}

} // namespace
} // namespace gpurace::rt
