#include "bench/corpus/AnalyzerRun.h"
#include "bench/corpus/Matching.h"

#include <gtest/gtest.h>

using namespace gpurace;
using namespace gpurace::corpus;

namespace {

CorpusFile corpusFile(const std::string &text) {
  std::vector<AnnotationError> errors;
  CorpusFile file = parseAnnotations("k.cu", text, errors);
  EXPECT_TRUE(errors.empty());
  return file;
}

// The analyzer's JSON for candidates at the given lines and class names,
// written the way `gpurace analyze --format=json` prints it.
std::string analysisJson(
    const std::vector<std::tuple<unsigned, unsigned, std::string>> &pairs) {
  std::string json = R"({"toolVersion": "0.1.0", "candidates": [)";
  for (size_t i = 0; i < pairs.size(); ++i) {
    auto [first, second, cls] = pairs[i];
    json += (i ? "," : "") + std::string(R"({"kernel": "k", "first": {"location": {"file": "k.cu", "line": )") +
            std::to_string(first) + R"(}}, "second": {"location": {"file": "k.cu", "line": )" +
            std::to_string(second) + R"(}}, "raceClass": ")" + cls +
            R"(", "defect": "SYNC_DEFECT_MISSING_BARRIER", "score": 1.0})";
  }
  return json + "]}";
}

FileScore score(const CorpusFile &file, const std::string &json) {
  AnalyzerOutcome outcome = interpretAnalyzerOutput(2, json, "");
  EXPECT_TRUE(outcome.ok) << outcome.error;
  return scoreFile(file, fromAnalysis(outcome.result));
}

const char *kPairFile = "// category: c\n"
                        "s[t] = x; // expect-race(a): intra-block\n"
                        "y = s[t + 32]; // expect-race(a): intra-block\n"
                        "A[t] = A[t + 1]; // expect-race(b): intra-warp\n";

TEST(Matching, PairMatchesInEitherOrder) {
  FileScore s = score(corpusFile(kPairFile),
                      analysisJson({{3, 2, "RACE_CLASS_INTRA_BLOCK"},
                                    {4, 4, "RACE_CLASS_INTRA_WARP"}}));
  EXPECT_EQ(s.expected, 2u);
  EXPECT_EQ(s.found, 2u);
  EXPECT_EQ(s.false_negatives, 0u);
  EXPECT_EQ(s.false_positives, 0u);
}

TEST(Matching, WrongClassIsAMissButNotAFalsePositive) {
  FileScore s = score(corpusFile(kPairFile),
                      analysisJson({{2, 3, "RACE_CLASS_INTER_BLOCK"},
                                    {4, 4, "RACE_CLASS_INTRA_WARP"}}));
  EXPECT_EQ(s.found, 1u);
  EXPECT_EQ(s.false_negatives, 1u);
  EXPECT_EQ(s.false_positives, 0u);
}

TEST(Matching, SelfRaceNeedsBothSitesOnItsLine) {
  FileScore s = score(corpusFile(kPairFile),
                      analysisJson({{2, 3, "RACE_CLASS_INTRA_BLOCK"},
                                    {4, 3, "RACE_CLASS_INTRA_WARP"}}));
  EXPECT_EQ(s.found, 1u);
  EXPECT_EQ(s.false_negatives, 1u);
  EXPECT_EQ(s.false_positives, 1u);
}

TEST(Matching, UnexpectedPairCountsOnceAcrossClasses) {
  FileScore s = score(corpusFile("// category: c\n// expect: race-free\n"),
                      analysisJson({{7, 9, "RACE_CLASS_INTRA_WARP"},
                                    {9, 7, "RACE_CLASS_INTRA_BLOCK"},
                                    {7, 7, "RACE_CLASS_INTRA_WARP"}}));
  EXPECT_EQ(s.expected, 0u);
  EXPECT_EQ(s.false_positives, 2u);
  EXPECT_EQ(s.details.size(), 2u);
}

TEST(Matching, ScopedRaceIsFoundWithAnyClass) {
  CorpusFile file = corpusFile("// category: c\n"
                               "atomicAdd_block(p, 1); // expect-race(a): scoped\n");
  FileScore s = score(file, analysisJson({{2, 2, "RACE_CLASS_INTER_BLOCK"}}));
  EXPECT_EQ(s.found, 1u);
  EXPECT_EQ(s.false_positives, 0u);
}

TEST(Matching, DivergenceMatchesOnTheBarrierLine) {
  CorpusFile file = corpusFile(
      "// category: c\nif (t < n)\n"
      "  __syncthreads(); // expect-divergence: barrier-divergence\n");
  FileScore hit = score(
      file, analysisJson({{3, 3, "RACE_CLASS_BARRIER_DIVERGENCE"}}));
  EXPECT_EQ(hit.found, 1u);
  EXPECT_EQ(hit.false_positives, 0u);
  FileScore miss = score(
      file, analysisJson({{2, 3, "RACE_CLASS_BARRIER_DIVERGENCE"},
                          {3, 3, "RACE_CLASS_INTRA_BLOCK"}}));
  EXPECT_EQ(miss.found, 0u);
  EXPECT_EQ(miss.false_negatives, 1u);
  EXPECT_EQ(miss.false_positives, 2u);
}

TEST(Matching, RuntimeReportsAreScoredLikeCandidates) {
  v1::RuntimeReport report;
  v1::ObservedRace *race = report.add_races();
  race->mutable_first()->mutable_location()->set_line(4);
  race->mutable_second()->mutable_location()->set_line(4);
  race->set_race_class(v1::RACE_CLASS_INTRA_WARP);
  FileScore s = scoreFile(corpusFile(kPairFile), fromRuntime({report}));
  EXPECT_EQ(s.found, 1u);
  EXPECT_EQ(s.false_negatives, 1u);
}

TEST(AnalyzerOutput, ExitOneIsAToolErrorWithTheMessage) {
  AnalyzerOutcome outcome =
      interpretAnalyzerOutput(1, "", "k.cu:3:1: error: expected ';'\nmore\n");
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("exited with 1"), std::string::npos);
  EXPECT_NE(outcome.error.find("expected ';'"), std::string::npos);
}

TEST(AnalyzerOutput, UnparsableJsonIsAToolError) {
  EXPECT_FALSE(interpretAnalyzerOutput(0, "{\"candidates\": [", "").ok);
  AnalyzerOutcome typo = interpretAnalyzerOutput(0, "{\"candidatez\": []}", "");
  EXPECT_FALSE(typo.ok);
  EXPECT_NE(typo.error.find("AnalysisResult"), std::string::npos);
}

TEST(AnalyzerOutput, NoFindingIsAnEmptyResult) {
  AnalyzerOutcome outcome = interpretAnalyzerOutput(0, "{}", "");
  ASSERT_TRUE(outcome.ok);
  EXPECT_EQ(outcome.result.candidates_size(), 0);
}

} // namespace
