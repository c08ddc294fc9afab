// Source paths relative to the project root: finding the root, and every
// path field of a result rewritten, the ones outside the root kept.
#include "common/ProjectPaths.h"

#include "gpurace/v1/analysis.pb.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace gpurace {
namespace {

namespace fs = std::filesystem;

class ProjectPaths : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/gpurace-paths-XXXXXX";
    checkout = fs::canonical(mkdtemp(pattern)).string();
    fs::create_directories(checkout + "/.git");
    fs::create_directories(checkout + "/src/kernels");
    std::ofstream(checkout + "/src/kernels/scan.cu") << "// scan\n";
  }
  void TearDown() override { fs::remove_all(checkout); }

  std::string checkout;
};

TEST_F(ProjectPaths, TheRootIsTheGitTopLevelAboveTheStart) {
  std::string error;
  EXPECT_EQ(findProjectRoot("", checkout + "/src/kernels", error), checkout);
  EXPECT_EQ(error, "");
  // A work tree whose .git is a file (a worktree or submodule) counts too.
  fs::remove_all(checkout + "/.git");
  std::ofstream(checkout + "/.git") << "gitdir: /elsewhere\n";
  EXPECT_EQ(findProjectRoot("", checkout + "/src", error), checkout);
}

TEST_F(ProjectPaths, RootFlagWinsAndMustBeADirectory) {
  std::string error;
  EXPECT_EQ(findProjectRoot(checkout + "/src/../src", "/", error),
            checkout + "/src");
  EXPECT_EQ(findProjectRoot(checkout + "/missing", "/", error), "");
  EXPECT_NE(error.find("--root"), std::string::npos) << error;
  EXPECT_NE(error.find("missing"), std::string::npos) << error;
}

TEST_F(ProjectPaths, PathsInsideTheRootBecomeRelativeOthersStay) {
  EXPECT_EQ(pathUnderRoot(checkout + "/src/kernels/scan.cu", checkout),
            "src/kernels/scan.cu");
  EXPECT_EQ(pathUnderRoot(checkout + "/src/./kernels/../kernels/scan.cu",
                          checkout),
            "src/kernels/scan.cu");
  EXPECT_EQ(pathUnderRoot("/usr/local/cuda/include/cuda.h", checkout),
            "/usr/local/cuda/include/cuda.h");
  // A sibling whose name starts like the root is outside it.
  EXPECT_EQ(pathUnderRoot(checkout + "-other/a.cu", checkout),
            checkout + "-other/a.cu");
  EXPECT_EQ(pathUnderRoot(checkout + "/src/a.cu", ""), checkout + "/src/a.cu");
}

TEST_F(ProjectPaths, EveryPathOfAResultIsRewritten) {
  const std::string file = checkout + "/src/kernels/scan.cu";
  v1::AnalysisResult result;
  result.add_files_analyzed(file);
  result.add_files_analyzed("/tmp/elsewhere.cu");
  result.add_partial_files(file);
  result.add_errors()->set_file(file);
  result.mutable_front_end()->set_cuda_path("/usr/local/cuda");
  v1::RaceCandidate *c = result.add_candidates();
  c->mutable_first()->mutable_location()->set_file(file);
  c->mutable_first()->add_call_stack()->mutable_call_site()->set_file(file);
  c->mutable_second()->mutable_location()->set_file(file);
  c->set_message("race in " + file);
  c->mutable_repair()->set_diff("--- " + file + "\n+++ " + file +
                                "\n@@ -1 +1 @@\n-a\n+b\n");
  c->mutable_repair()->add_edits()->mutable_location()->set_file(file);
  result.mutable_plan()->add_access_sites()->mutable_location()->set_file(file);

  relativizeSourcePaths(result, checkout);
  const std::string relative = "src/kernels/scan.cu";
  EXPECT_EQ(result.files_analyzed(0), relative);
  EXPECT_EQ(result.files_analyzed(1), "/tmp/elsewhere.cu");
  EXPECT_EQ(result.partial_files(0), relative);
  EXPECT_EQ(result.errors(0).file(), relative);
  EXPECT_EQ(result.front_end().cuda_path(), "/usr/local/cuda");
  EXPECT_EQ(c->first().location().file(), relative);
  EXPECT_EQ(c->first().call_stack(0).call_site().file(), relative);
  EXPECT_EQ(c->second().location().file(), relative);
  EXPECT_EQ(c->repair().edits(0).location().file(), relative);
  EXPECT_EQ(c->repair().diff(), "--- " + relative + "\n+++ " + relative +
                                    "\n@@ -1 +1 @@\n-a\n+b\n");
  EXPECT_EQ(result.plan().access_sites(0).location().file(), relative);
  // Prose is left alone: only path fields change.
  EXPECT_EQ(c->message(), "race in " + file);
}

TEST_F(ProjectPaths, DiffMapsAreKeyedByTheRelativePath) {
  const std::string file = checkout + "/src/kernels/scan.cu";
  v1::RepairResult repairs;
  (*repairs.mutable_diffs())[file] = "--- " + file + "\n+++ " + file + "\n";
  relativizeSourcePaths(repairs, checkout);
  ASSERT_EQ(repairs.diffs().size(), 1u);
  ASSERT_TRUE(repairs.diffs().count("src/kernels/scan.cu"));
  EXPECT_EQ(repairs.diffs().at("src/kernels/scan.cu"),
            "--- src/kernels/scan.cu\n+++ src/kernels/scan.cu\n");
}

} // namespace
} // namespace gpurace
