// The gpurace program's help and usage errors, as a user's script sees them.
#include "tests/support/RunProcess.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace gpurace::testing {
namespace {

const std::vector<std::string> kSubcommands = {
    "analyze", "instrument", "run", "serve", "upload", "races", "token", "db"};

int lineCount(const std::string &text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

TEST(Cli, HelpListsEverySubcommand) {
  ProcessResult r = runProcess({gpuraceBinary(), "--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const auto &name : kSubcommands)
    EXPECT_NE(r.out.find("\n  " + name + " "), std::string::npos) << name;
}

TEST(Cli, EverySubcommandHasHelp) {
  for (const auto &name : kSubcommands) {
    ProcessResult r = runProcess({gpuraceBinary(), name, "--help"});
    EXPECT_EQ(r.exit_code, 0) << name;
    EXPECT_NE(r.out.find("Usage:"), std::string::npos) << name;
    EXPECT_EQ(r.out.find("SUBCOMMAND"), std::string::npos)
        << name << " printed the top-level help:\n" << r.out;
  }
}

TEST(Cli, UnavailableSubcommandSaysSoAndFails) {
  for (const auto &name : kSubcommands) {
    ProcessResult help = runProcess({gpuraceBinary(), name, "--help"});
    if (help.out.find("Not available yet") == std::string::npos)
      continue;
    ProcessResult r = runProcess({gpuraceBinary(), name});
    EXPECT_EQ(r.exit_code, 1) << name;
    EXPECT_NE(r.err.find("not available yet"), std::string::npos) << name;
  }
}

TEST(Cli, UnknownSubcommandIsAOneLineError) {
  ProcessResult r = runProcess({gpuraceBinary(), "analyse"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(lineCount(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("unknown command 'analyse'"), std::string::npos) << r.err;
}

TEST(Cli, UnknownTopLevelFlagIsAOneLineError) {
  ProcessResult r = runProcess({gpuraceBinary(), "--frobnicate"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(lineCount(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("--frobnicate"), std::string::npos) << r.err;
}

TEST(Cli, MissingSubcommandFails) {
  ProcessResult r = runProcess({gpuraceBinary()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(lineCount(r.err), 1) << r.err;
}

TEST(Cli, VersionPrintsTheVersion) {
  ProcessResult r = runProcess({gpuraceBinary(), "--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("gpurace ", 0), 0u) << r.out;
}

} // namespace
} // namespace gpurace::testing
