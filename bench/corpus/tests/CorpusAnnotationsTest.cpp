#include "bench/corpus/CorpusAnnotations.h"

#include <gtest/gtest.h>

using namespace gpurace;
using namespace gpurace::corpus;

namespace {

CorpusFile parse(const std::string &text, std::vector<AnnotationError> &errors) {
  return parseAnnotations("k.cu", text, errors);
}

TEST(CorpusAnnotations, ReadsPairsSelfRacesAndDivergences) {
  std::vector<AnnotationError> errors;
  CorpusFile file = parse("// category: shared-memory\n"
                          "// needs: host-facts\n"
                          "// source: HGRD Fig. 1\n"
                          "  s[t] = x; // expect-race(a): intra-block\n"
                          "  y = s[t + 32]; // expect-race(a): intra-block\n"
                          "  A[t] = A[t + 1]; // expect-race(b): intra-warp\n"
                          "  __syncthreads(); // expect-divergence: barrier-divergence\n",
                          errors);
  ASSERT_TRUE(errors.empty()) << errors[0].message;
  EXPECT_EQ(file.category, "shared-memory");
  EXPECT_TRUE(file.needs_host_facts);
  EXPECT_FALSE(file.needs_sync_semantics);
  EXPECT_EQ(file.source, "HGRD Fig. 1");
  ASSERT_EQ(file.races.size(), 2u);
  EXPECT_EQ(file.races[0].lines, (std::vector<unsigned>{4, 5}));
  EXPECT_EQ(file.races[0].race_class, v1::RACE_CLASS_INTRA_BLOCK);
  EXPECT_EQ(file.races[1].lines, (std::vector<unsigned>{6}));
  EXPECT_EQ(file.races[1].race_class, v1::RACE_CLASS_INTRA_WARP);
  EXPECT_EQ(file.divergences, (std::vector<unsigned>{7}));
}

TEST(CorpusAnnotations, RaceFreeFileHasNoExpectations) {
  std::vector<AnnotationError> errors;
  CorpusFile file = parse("// category: fence\n// expect: race-free\n"
                          "// needs: sync-semantics\nint x; // a comment\n",
                          errors);
  EXPECT_TRUE(errors.empty());
  EXPECT_TRUE(file.race_free);
  EXPECT_TRUE(file.needs_sync_semantics);
}

TEST(CorpusAnnotations, MissingCategoryAndVerdictAreErrors) {
  std::vector<AnnotationError> errors;
  parse("int main() { return 0; }\n", errors);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_NE(errors[0].message.find("category"), std::string::npos);
  EXPECT_NE(errors[1].message.find("race-free"), std::string::npos);
}

TEST(CorpusAnnotations, InvalidClassNamesTheLine) {
  std::vector<AnnotationError> errors;
  parse("// category: c\nx = 1; // expect-race(a): inter-grid\n", errors);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].line, 2u);
  EXPECT_NE(errors[0].message.find("inter-grid"), std::string::npos);
}

TEST(CorpusAnnotations, IdOnThreeLinesIsAnError) {
  std::vector<AnnotationError> errors;
  parse("// category: c\n"
        "a; // expect-race(x): scoped\n"
        "b; // expect-race(x): scoped\n"
        "c; // expect-race(x): scoped\n",
        errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].line, 4u);
}

TEST(CorpusAnnotations, ClassDisagreementWithinAnIdIsAnError) {
  std::vector<AnnotationError> errors;
  parse("// category: c\n"
        "a; // expect-race(x): intra-warp\n"
        "b; // expect-race(x): intra-block\n",
        errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].line, 3u);
}

TEST(CorpusAnnotations, RaceFreeWithExpectedRaceIsAnError) {
  std::vector<AnnotationError> errors;
  parse("// category: c\n// expect: race-free\n"
        "a; // expect-race(x): intra-warp\n",
        errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("together"), std::string::npos);
}

TEST(CorpusAnnotations, MalformedAnnotationIsReportedNotIgnored) {
  std::vector<AnnotationError> errors;
  parse("// category: c\n// expect: racy\n// needs: gpu\n"
        "a; // expect-race(x) intra-warp\n",
        errors);
  ASSERT_GE(errors.size(), 3u);
  EXPECT_EQ(errors[0].line, 2u);
  EXPECT_EQ(errors[1].line, 3u);
  EXPECT_EQ(errors[2].line, 4u);
}

TEST(CorpusAnnotations, ParsesEveryRaceClassName) {
  EXPECT_EQ(parseRaceClass("scoped"), v1::RACE_CLASS_SCOPED);
  EXPECT_EQ(parseRaceClass("inter-block"), v1::RACE_CLASS_INTER_BLOCK);
  EXPECT_EQ(parseRaceClass("barrier-divergence"),
            v1::RACE_CLASS_BARRIER_DIVERGENCE);
  EXPECT_FALSE(parseRaceClass("INTRA_WARP").has_value());
}

TEST(CorpusAnnotations, UnreadableFileIsAnError) {
  std::vector<AnnotationError> errors;
  loadCorpusFile("/nonexistent/dir/k.cu", errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].path, "/nonexistent/dir/k.cu");
}

} // namespace

namespace {

TEST(CorpusAnnotations, ReadsPerfCostsPerLineAndKind) {
  std::vector<AnnotationError> errors;
  CorpusFile file = parse("// category: perf\n// expect: race-free\n"
                          "  out[i] = tile[tx][ty]; // expect-perf: banks 32, sectors 4/4\n"
                          "  x = in[i * 2]; // expect-perf: sectors 8/4\n",
                          errors);
  ASSERT_TRUE(errors.empty()) << errors[0].message;
  ASSERT_EQ(file.perf.size(), 3u);
  EXPECT_EQ(file.perf[0].line, 3u);
  EXPECT_EQ(file.perf[0].kind, v1::PERF_KIND_BANK_CONFLICT);
  EXPECT_EQ(file.perf[0].cost, 32u);
  EXPECT_EQ(file.perf[0].best, 1u);
  EXPECT_EQ(file.perf[1].kind, v1::PERF_KIND_UNCOALESCED);
  EXPECT_EQ(file.perf[2].line, 4u);
  EXPECT_EQ(file.perf[2].cost, 8u);
  EXPECT_EQ(file.perf[2].best, 4u);
}

TEST(CorpusAnnotations, APerfCostMayNameTheLaunchValuesThatMakeItFree) {
  std::vector<AnnotationError> errors;
  CorpusFile file = parse("// category: perf\n// expect: race-free\n"
                          "  x = tile[t * pitch]; // expect-perf: banks 32 free-when pitch = 33\n"
                          "  y = in[i * s]; // expect-perf: sectors 8/4 free-when s = 1\n",
                          errors);
  ASSERT_TRUE(errors.empty()) << errors[0].message;
  ASSERT_EQ(file.perf.size(), 2u);
  EXPECT_EQ(file.perf[0].cost, 32u);
  EXPECT_EQ(file.perf[0].free_when, "pitch = 33");
  EXPECT_EQ(file.perf[1].best, 4u);
  EXPECT_EQ(file.perf[1].free_when, "s = 1");
}

TEST(CorpusAnnotations, MalformedPerfCostsAreErrorsWithTheLine) {
  for (const char *bad : {"banks", "sectors 4", "sectors 2/4", "banks 0", "bank 2",
                          "banks 2, banks 4", "banks 2 free-when pitch", "banks 2 free-when = 3",
                          "banks 2 free-when pitch odd"}) {
    std::vector<AnnotationError> errors;
    parse(std::string("// category: perf\n// expect: race-free\nx = s[t]; // expect-perf: ") +
              bad + "\n",
          errors);
    ASSERT_EQ(errors.size(), 1u) << bad;
    EXPECT_EQ(errors[0].line, 3u) << bad;
  }
}

} // namespace
