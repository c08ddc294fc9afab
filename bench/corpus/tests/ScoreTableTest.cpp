#include "bench/corpus/ScoreTable.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

using namespace gpurace::corpus;

namespace {

FileScore fileScore(unsigned found, unsigned fn, unsigned fp) {
  FileScore score;
  score.expected = found + fn;
  score.found = found;
  score.false_negatives = fn;
  score.false_positives = fp;
  return score;
}

ScoreTable sampleTable() {
  ScoreTable table;
  table.addFile("fence", 2);
  table.add("fence", Mode::KernelOnly, fileScore(2, 0, 1));
  table.add("fence", Mode::HostFacts, fileScore(2, 0, 0));
  table.addFile("lock", 1);
  table.add("lock", Mode::KernelOnly, std::nullopt);
  table.add("lock", Mode::HostFacts, fileScore(0, 1, 0));
  return table;
}

std::string tempPath(const std::string &name) {
  return ::testing::TempDir() + "/" + name;
}

TEST(ScoreTable, SumsPerCategoryAndInTotal) {
  ScoreTable table = sampleTable();
  const Row &total = table.total();
  EXPECT_EQ(total.files, 2u);
  EXPECT_EQ(total.expected, 3u);
  const Totals &kernelOnly = total.modes[int(Mode::KernelOnly)];
  EXPECT_EQ(kernelOnly.found, 2u);
  EXPECT_EQ(kernelOnly.false_positives, 1u);
  EXPECT_EQ(kernelOnly.tool_errors, 1u);
  EXPECT_EQ(table.rows().at("lock").modes[int(Mode::HostFacts)].false_negatives,
            1u);
}

TEST(ScoreTable, PrintsCellsInTable3LayoutAndNaForDynamic) {
  std::ostringstream out;
  sampleTable().print(out);
  std::string text = out.str();
  EXPECT_NE(text.find("2 [0:1]"), std::string::npos);
  EXPECT_NE(text.find("1 err"), std::string::npos);
  EXPECT_NE(text.find("n/a"), std::string::npos);
  EXPECT_NE(text.find("Total"), std::string::npos);
}

TEST(ScoreTable, BaselineRoundTripsAndDetectsRegressions) {
  std::string path = tempPath("corpus-baseline.json");
  std::string error;
  ScoreTable table = sampleTable();
  ASSERT_TRUE(writeBaseline(path, table.total(), error)) << error;
  Baseline baseline;
  ASSERT_TRUE(readBaseline(path, baseline, error)) << error;
  EXPECT_TRUE(compareWithBaseline(baseline, table.total()).empty());

  Row worse = table.total();
  worse.modes[int(Mode::HostFacts)].found = 1;
  worse.modes[int(Mode::KernelOnly)].false_positives = 4;
  std::vector<std::string> regressions = compareWithBaseline(baseline, worse);
  ASSERT_EQ(regressions.size(), 2u);
  EXPECT_NE(regressions[0].find("kernel_only: false positives rose 1 -> 4"),
            std::string::npos);
  EXPECT_NE(regressions[1].find("host_facts: races found fell 2 -> 1"),
            std::string::npos);

  Row better = table.total();
  better.modes[int(Mode::HostFacts)].found = 3;
  EXPECT_TRUE(compareWithBaseline(baseline, better).empty());
  std::remove(path.c_str());
}

TEST(ScoreTable, DynamicTotalsAreRecordedAndComparedOnlyWhenTheyRan) {
  std::string path = tempPath("corpus-baseline-dynamic.json");
  std::string error;
  ScoreTable table = sampleTable();
  table.add("fence", Mode::Dynamic, fileScore(2, 0, 0));
  ASSERT_TRUE(writeBaseline(path, table.total(), error)) << error;
  Baseline baseline;
  ASSERT_TRUE(readBaseline(path, baseline, error)) << error;
  ASSERT_EQ(baseline.modes.count("dynamic"), 1u);
  EXPECT_EQ(baseline.modes["dynamic"].found, 2u);

  EXPECT_TRUE(compareWithBaseline(baseline, sampleTable().total()).empty());
  Row worse = table.total();
  worse.modes[int(Mode::Dynamic)].false_positives = 1;
  std::vector<std::string> regressions = compareWithBaseline(baseline, worse);
  ASSERT_EQ(regressions.size(), 1u);
  EXPECT_NE(regressions[0].find("dynamic: false positives rose 0 -> 1"), std::string::npos);

  // Rewriting the baseline from a static-only run keeps the dynamic totals.
  Row static_only = sampleTable().total();
  static_only.modes[int(Mode::HostFacts)].found = 3;
  ASSERT_TRUE(writeBaseline(path, static_only, error)) << error;
  Baseline rewritten;
  ASSERT_TRUE(readBaseline(path, rewritten, error)) << error;
  EXPECT_EQ(rewritten.modes["host_facts"].found, 3u);
  ASSERT_EQ(rewritten.modes.count("dynamic"), 1u);
  EXPECT_EQ(rewritten.modes["dynamic"].found, 2u);
  std::remove(path.c_str());
}

TEST(ScoreTable, MalformedBaselineNamesTheField) {
  std::string path = tempPath("bad-baseline.json");
  std::ofstream(path) << R"({"host_facts": {"found": -1}})";
  Baseline baseline;
  std::string error;
  EXPECT_FALSE(readBaseline(path, baseline, error));
  EXPECT_NE(error.find("host_facts.found"), std::string::npos);
  EXPECT_NE(error.find(path), std::string::npos);
  std::remove(path.c_str());
}

} // namespace
