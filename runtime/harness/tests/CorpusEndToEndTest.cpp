// Whole corpus programs, unchanged, through the real pipeline without a GPU:
// `gpurace analyze` (host facts) -> `gpurace instrument --cpu-harness` ->
// host C++ compiler -> the program on the CPU harness -> detector ->
// RuntimeReports. Every race the run confirms must be a static candidate it
// came from (same site ids, class and fingerprint); racy programs must have
// their annotated races confirmed and nothing else; race-free programs must
// report nothing.
#include "bench/corpus/CorpusAnnotations.h"
#include "bench/corpus/Matching.h"
#include "proto/JsonCodec.h"
#include "runtime/harness/ChildProcess.h"
#include "runtime/harness/HarnessRun.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace gpurace::rt {
namespace {

namespace fs = std::filesystem;

struct Pipeline {
  v1::AnalysisResult analysis;
  HarnessOutcome outcome;
};

std::string slurp(const std::string &path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string scratchFor(const std::string &file) {
  std::string name = fs::path(file).stem().string();
  fs::path dir = fs::path(::testing::TempDir()) /
                 ("gpurace-corpus-e2e-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

Pipeline analyzeAndRun(const std::string &file, const std::string &work) {
  Pipeline p;
  std::string result = work + "/analysis.json";
  ChildResult analyzed = runChild(
      {GPURACE_PROGRAM, "analyze", "--format=json", "-o", result, file}, {},
      work + "/analyze.out", 300);
  EXPECT_TRUE(analyzed.exit_code == 0 || analyzed.exit_code == 2) << analyzed.err;
  std::string error;
  EXPECT_TRUE(fromJson(slurp(result), p.analysis, error)) << error;
  HarnessJob job;
  job.gpurace = GPURACE_PROGRAM;
  job.compiler = GPURACE_HOST_CXX;
  job.source_dir = GPURACE_SOURCE_DIR;
  job.plan = result;
  job.file = file;
  job.work_dir = work;
  p.outcome = runOnHarness(job);
  return p;
}

const v1::RaceCandidate *candidateFor(const v1::AnalysisResult &analysis,
                                      const v1::ObservedRace &race) {
  for (const v1::RaceCandidate &c : analysis.candidates()) {
    bool same = (c.first().site_id() == race.first().site_id() &&
                 c.second().site_id() == race.second().site_id()) ||
                (c.first().site_id() == race.second().site_id() &&
                 c.second().site_id() == race.first().site_id());
    if (same && c.race_class() == race.race_class())
      return &c;
  }
  return nullptr;
}

class CorpusEndToEndTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusEndToEndTest, ConfirmsExactlyTheAnnotatedRacesAsStaticCandidates) {
  std::string file = std::string(GPURACE_CORPUS_DIR) + "/" + GetParam();
  std::vector<corpus::AnnotationError> errors;
  corpus::CorpusFile annotated = corpus::loadCorpusFile(file, errors);
  ASSERT_TRUE(errors.empty());
  std::string work = scratchFor(file);
  Pipeline p = analyzeAndRun(file, work);
  ASSERT_EQ(p.outcome.status, HarnessOutcome::Ran) << p.outcome.reason;
  ASSERT_FALSE(p.outcome.reports.empty());
  for (const v1::RuntimeReport &report : p.outcome.reports) {
    EXPECT_EQ(report.coverage().records_lost(), 0u);
    EXPECT_EQ(report.coverage().malformed_records(), 0u);
    for (const v1::ObservedRace &race : report.races()) {
      const v1::RaceCandidate *candidate = candidateFor(p.analysis, race);
      ASSERT_NE(candidate, nullptr) << "confirmed race is no static candidate: "
                                    << race.DebugString();
      EXPECT_EQ(race.fingerprint(), candidate->fingerprint());
    }
  }
  corpus::FileScore score =
      corpus::scoreFile(annotated, corpus::fromRuntime(p.outcome.reports));
  EXPECT_EQ(score.found, score.expected) << ::testing::PrintToString(score.details);
  EXPECT_EQ(score.false_positives, 0u) << ::testing::PrintToString(score.details);
  if (annotated.race_free)
    for (const v1::RuntimeReport &report : p.outcome.reports)
      EXPECT_EQ(report.races_size(), 0) << report.DebugString();
  fs::remove_all(work);
}

// Racy programs of every class the harness confirms (global and shared,
// dynamic shared memory, device functions, templates, two launches,
// cooperative groups, scoped atomics, fences), race-free programs whose
// analysis flags something for the run to refute, and race-free programs
// that exercise shuffles and __syncwarp with nothing planned.
INSTANTIATE_TEST_SUITE_P(
    Corpus, CorpusEndToEndTest,
    ::testing::Values("global-memory/shift_left_in_place.cu",
                      "global-memory/shift_by_block_in_place.cu",
                      "shared-memory/raw_missing_barrier.cu",
                      "shared-memory/dynamic_reverse_race.cu",
                      "intra-warp/unrolled_warp_reduce_race.cu",
                      "branch-ordering/even_odd_exchange_race.cu",
                      "device-function/move_helper_overlap_race.cu",
                      "template/stride_gather_race.cu",
                      "host-launch-dims/two_launch_sites.cu",
                      "grid-sync/block_sync_instead_race.cu",
                      "scoped-atomic/atomic_vs_plain_race.cu",
                      "fence/flag_no_fence_race.cu",
                      "barrier-loop/scan_double_buffer_ok.cu",
                      "host-assert/copy_from_tp_macro_assert_ok.cu",
                      "intra-warp/shfl_reduce_ok.cu",
                      "intra-warp/neighbor_exchange_syncwarp_ok.cu"),
    [](const ::testing::TestParamInfo<std::string> &info) {
      std::string name = fs::path(info.param).stem().string();
      for (char &c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)))
          c = '_';
      return name;
    });

} // namespace
} // namespace gpurace::rt
