// Several files form one program: launches reach kernels of other
// translation units, an included .cu is part of its includer, and a Clang
// error keeps out only the kernels it touches.
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace gpurace::analyzer::testing {
namespace {

// Files in a fresh temporary folder, removed with the object.
class TempProgram {
public:
  TempProgram() {
    char pattern[] = "/tmp/gpurace-program-XXXXXX";
    dir_ = mkdtemp(pattern);
  }
  ~TempProgram() { std::filesystem::remove_all(dir_); }
  std::string add(const std::string &name, const std::string &code) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path) << code;
    return path;
  }

private:
  std::string dir_;
};

v1::AnalysisResult analyzeFiles(const std::vector<std::string> &files,
                                AnalyzeOptions options = {}) {
  options.files = files;
  v1::AnalysisResult result;
  std::string error;
  EXPECT_TRUE(analyze(options, result, error)) << error;
  return result;
}

const char *kTileKernel = R"(__global__ void tiles(float *d) {
  unsigned i = blockIdx.x * 128 + threadIdx.x;
  d[i] = d[i] * 2.0f;
}
)";

std::string launcher(unsigned threads) {
  return "__global__ void tiles(float *d);\n"
         "int main() { float *d; cudaMalloc(&d, 1 << 20);\n"
         "  tiles<<<16, " + std::to_string(threads) + ">>>(d); }\n";
}

TEST(WholeProgram, ALaunchInAnotherFileGivesItsFacts) {
  TempProgram program;
  std::string kernel = program.add("kernel.cu", kTileKernel);
  std::string narrow = program.add("main.cu", launcher(128));
  v1::AnalysisResult ok = analyzeFiles({kernel, narrow});
  EXPECT_EQ(ok.errors_size(), 0) << ok.errors(0).message();
  EXPECT_EQ(ok.kernels_analyzed(), 1u);
  EXPECT_TRUE(findings(ok).empty());

  std::string wide = program.add("main.cu", launcher(256));
  v1::AnalysisResult racy = analyzeFiles({kernel, wide});
  auto races = findings(racy, v1::RACE_CLASS_INTER_BLOCK);
  ASSERT_FALSE(races.empty());
  EXPECT_EQ(races.front().launch_site().location().file(), wide);
  EXPECT_EQ(races.front().launch_site().grid_dim().x(), 16u);
  EXPECT_EQ(races.front().launch_site().block_dim().x(), 256u);
}

TEST(WholeProgram, TheKernelFileAloneHasNoLaunch) {
  TempProgram program;
  std::string kernel = program.add("kernel.cu", kTileKernel);
  v1::AnalysisResult alone = analyzeFiles({kernel});
  ASSERT_FALSE(alone.candidates().empty());
  bool no_launch = false;
  for (const auto &why : alone.candidates(0).imprecisions())
    no_launch |= why.kind() == v1::IMPRECISION_KIND_NO_LAUNCH_CONTEXT;
  EXPECT_TRUE(no_launch);
}

TEST(WholeProgram, AnIncludedCuIsPartOfItsIncluderAndReportedOnce) {
  TempProgram program;
  std::string part = program.add("part.cu", R"(__global__ void bump(int *c) {
  c[0] = c[0] + 1;
}
)");
  std::string main = program.add("main.cu", R"(#include "part.cu"
int main() { int *c; cudaMalloc(&c, 4); bump<<<1, 64>>>(c); }
)");
  v1::AnalysisResult result = analyzeFiles({part, main});
  EXPECT_EQ(result.errors_size(), 0);
  EXPECT_EQ(result.kernels_analyzed(), 1u);
  ASSERT_EQ(result.front_end().included_inputs_size(), 1);
  EXPECT_EQ(result.front_end().included_inputs(0), part);
  // The same findings as the includer alone, with its launch.
  v1::AnalysisResult includer = analyzeFiles({main});
  ASSERT_FALSE(findings(includer).empty());
  EXPECT_EQ(findings(result).size(), findings(includer).size());
  EXPECT_EQ(findings(result).front().launch_site().location().file(), main);
}

TEST(WholeProgram, AClangErrorInOneKernelLeavesTheOthersAnalyzed) {
  v1::AnalysisResult result = analyzeCode(R"(
__global__ void broken(int *a) {
  a[threadIdx.x] = undeclared_name;
}
__global__ void fine(int *a) {
  a[0] = threadIdx.x;
}
int main() { int *a; cudaMalloc(&a, 1024); broken<<<1, 32>>>(a); fine<<<1, 32>>>(a); }
)");
  EXPECT_EQ(result.kernels_analyzed(), 1u);
  ASSERT_EQ(result.partial_files_size(), 1);
  bool named = false;
  for (const v1::FileError &e : result.errors())
    named |= e.kernel() == "broken";
  EXPECT_TRUE(named);
  ASSERT_EQ(findings(result).size(), 1u);
  EXPECT_EQ(findings(result).front().kernel(), "fine");
}

// nvcc builds a kernel that launches another only with -rdc=true; the
// analyzer parses so by default, so the file needs no flag.
TEST(WholeProgram, AKernelLaunchedFromDeviceCodeParsesWithoutFlags) {
  v1::AnalysisResult result = analyzeCode(R"(
__global__ void child(int *a, int base) {
  a[base + threadIdx.x] = threadIdx.x;
}
__global__ void parent(int *a) {
  if (threadIdx.x == 0)
    child<<<1, 32>>>(a, blockIdx.x * 32);
  a[4096 + blockIdx.x] = threadIdx.x;
}
int main() { int *a; cudaMalloc(&a, 1 << 16); parent<<<8, 64>>>(a); }
)");
  EXPECT_EQ(result.errors_size(), 0) << result.errors(0).message();
  EXPECT_EQ(result.partial_files_size(), 0);
  EXPECT_EQ(result.kernels_analyzed(), 2u);
  // All the threads of a parent block store their own index in one
  // element: found like any race.
  bool parent_race = false;
  for (const v1::RaceCandidate &race : findings(result))
    parent_race |= race.kernel() == "parent" &&
                   race.first().expression().find("4096") != std::string::npos;
  EXPECT_TRUE(parent_race);
}

TEST(WholeProgram, AMissingHeaderDoesNotHideTheKernelsItDoesNotTouch) {
  v1::AnalysisResult result = analyzeCode(R"(
#include "no_such_header.h"
__global__ void fine(int *a) {
  a[0] = threadIdx.x;
}
int main() { int *a; cudaMalloc(&a, 1024); fine<<<1, 32>>>(a); }
)");
  ASSERT_GE(result.errors_size(), 1);
  EXPECT_NE(result.errors(0).message().find("no_such_header.h"), std::string::npos);
  EXPECT_EQ(result.kernels_analyzed(), 1u);
  EXPECT_EQ(findings(result).size(), 1u);
}

TEST(WholeProgram, TheResultSaysHowTheFilesWereParsed) {
  AnalyzeOptions fallback;
  fallback.fallback_headers = true;
  v1::AnalysisResult result = analyzeCode("__global__ void k(int *a) { a[0] = 1; }\n",
                                          fallback);
  EXPECT_EQ(result.front_end().headers(), "fallback");
  EXPECT_EQ(result.front_end().gpu_arch(), "sm_75");
}

const char *kWrappedKernel = R"(__global__ void shift(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    out[i] = in[i + 1];
}
void launchShift(const float *in, float *out, int n) {
  shift<<<(n + 255) / 256, 256>>>(in, out, n);
}
)";

std::string wrapperCaller(const std::string &arguments) {
  return "#include <cuda_runtime.h>\n"
         "void launchShift(const float *in, float *out, int n);\n"
         "int main() { float *a, *b; cudaMalloc(&a, 4096); cudaMalloc(&b, 4096);\n"
         "  launchShift(" + arguments + "); }\n";
}

TEST(WholeProgram, ALaunchWrapperCalledFromAnotherFileGetsItsCallersArguments) {
  TempProgram program;
  std::string kernel = program.add("kernel.cu", kWrappedKernel);
  // Two allocations: the wrapper's pointers do not alias, and n is 1024.
  v1::AnalysisResult apart = analyzeFiles({kernel, program.add("main.cpp", wrapperCaller("a, b, 1024"))});
  EXPECT_EQ(apart.errors_size(), 0) << apart.DebugString();
  EXPECT_TRUE(findings(apart).empty()) << apart.DebugString();
  // One allocation twice: the shifted read meets the neighbour's write,
  // and the witness uses the caller's n.
  v1::AnalysisResult same = analyzeFiles({kernel, program.add("same.cpp", wrapperCaller("a, a, 1024"))});
  auto races = findings(same, v1::RACE_CLASS_INTRA_WARP);
  ASSERT_FALSE(races.empty()) << same.DebugString();
  bool n_from_caller = false;
  for (const auto &p : races.front().witness().parameters())
    n_from_caller |= p.name() == "n" && p.value() == "1024";
  EXPECT_TRUE(n_from_caller) << races.front().witness().DebugString();
}

} // namespace
} // namespace gpurace::analyzer::testing
