#include "runtime/instrument/Instrumenter.h"

#include "tests/support/RunProcess.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace gpurace::rt {
namespace {

const std::string kInputs = GPURACE_INSTRUMENT_TEST_INPUTS;

// A folder of the test's own (ctest may run tests side by side), removed
// with what the test wrote into it.
class ScratchDir {
public:
  ScratchDir() {
    std::string pattern = ::testing::TempDir() + "gpurace-instrument-XXXXXX";
    path_ = mkdtemp(pattern.data()) ? pattern + "/" : ::testing::TempDir();
  }
  ~ScratchDir() {
    std::error_code ignored;
    if (path_ != ::testing::TempDir())
      std::filesystem::remove_all(path_, ignored);
  }
  // The folder, ending in '/'.
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

std::string readAll(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string lineOf(const std::string &text, int line) {
  std::istringstream in(text);
  std::string l;
  for (int i = 0; i < line && std::getline(in, l); ++i) {
  }
  return l;
}

class InstrumenterTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string error;
    auto loaded = SitePlan::load(kInputs + "/shift.plan.json", error);
    ASSERT_TRUE(loaded) << error;
    plan_ = *loaded;
    output_ = scratch_.path() + "shift.instrumented.cu";
    outcome_ = instrumentFile(plan_, kInputs + "/shift.cu", output_, {},
                              "DeviceRuntime.cuh");
    ASSERT_TRUE(outcome_.ok) << outcome_.error;
    text_ = readAll(output_);
  }
  // Line N of the user's file in the output (two lines are prepended).
  std::string userLine(int n) const { return lineOf(text_, n + 2); }

  SitePlan plan_;
  ScratchDir scratch_;
  std::string output_;
  InstrumentOutcome outcome_;
  std::string text_;
};

TEST_F(InstrumenterTest, IncludesTheRuntimeAndKeepsTheUsersLines) {
  EXPECT_EQ(lineOf(text_, 1), "#include \"DeviceRuntime.cuh\"");
  EXPECT_EQ(lineOf(text_, 2).rfind("#line 1 \"", 0), 0u);
  EXPECT_EQ(userLine(11), "  int i = blockIdx.x * blockDim.x + threadIdx.x;");
  EXPECT_EQ(userLine(29), "int main() { return 0; }");
}

TEST_F(InstrumenterTest, PlainStoreRecordsTheValue) {
  EXPECT_EQ(userLine(12), "  __gpurace_store(&(tile[threadIdx.x] ), ( "
                          "(*__gpurace_rec_r(&(a[i]), 1))), 0);");
  EXPECT_EQ(userLine(15), "    __gpurace_store(&(a[i] ), ( "
                          "(*__gpurace_rec_r(&(a[i + 1]), 3))), 2);");
}

TEST_F(InstrumenterTest, CompoundAssignmentAndIncrementReadAndWrite) {
  EXPECT_EQ(userLine(16), "  (*__gpurace_rec_rw(&(a[i]), 4)) += "
                          "(*__gpurace_rec_r(&(tile[(threadIdx.x + 1) % 64]), 5));");
  EXPECT_EQ(userLine(17), "  (*__gpurace_rec_rw(&(pairs[i].x), 6))++;");
  EXPECT_EQ(userLine(18), "  (*__gpurace_rec_rw(&(*total), 7)) += sumOf(&pairs[i]);");
}

TEST_F(InstrumenterTest, AccessesInDeviceFunctionsAreRewritten) {
  EXPECT_EQ(userLine(7), "__device__ int sumOf(const Pair *p) { return "
                         "(*__gpurace_rec_r(&(p->x), 8)) + p->y; }");
}

TEST_F(InstrumenterTest, AtomicsRecordTheirAddressAndScope) {
  EXPECT_EQ(userLine(19), "  while (atomicCAS(__gpurace_rec_a(lock, 9, 3), 0, 1) != 0) {");
  EXPECT_EQ(userLine(24), "  atomicExch_block(__gpurace_rec_a(lock, 12, 2), 0);");
}

TEST_F(InstrumenterTest, OnlyPlannedSitesAreRewritten) {
  // The read of total[1] is planned, the write too; p->y is not.
  EXPECT_EQ(userLine(22), "  __gpurace_store(&(total[1] ), ( "
                          "(*__gpurace_rec_r(&(total[1]), 11)) + 1), 10);");
  EXPECT_NE(userLine(7).find("+ p->y;"), std::string::npos);
}

TEST_F(InstrumenterTest, SyncOperationsRecordThemselves) {
  // Sync sites are numbered after the 14 access sites.
  EXPECT_EQ(userLine(13), "  (__gpurace_sync(14, 4, 0), __syncthreads());");
  EXPECT_EQ(userLine(21), "  (__gpurace_sync(15, 6, 3), __threadfence());");
  EXPECT_EQ(userLine(23), "  (__gpurace_sync(16, 6, 2), __threadfence_block());");
  EXPECT_EQ(userLine(25), "  __gpurace_syncwarp(17);");
  EXPECT_EQ(userLine(26), "  __gpurace_syncwarp(18, 0x0000ffffu);");
}

TEST_F(InstrumenterTest, OutputCompilesWithNvcc) {
#ifdef GPURACE_NVCC
  std::string runtime = GPURACE_DEVICE_RUNTIME_HEADER;
  InstrumentOutcome o = instrumentFile(plan_, kInputs + "/shift.cu", output_, {},
                                       runtime);
  ASSERT_TRUE(o.ok) << o.error;
  std::string object = scratch_.path() + "shift.instrumented.o";
  gpurace::testing::ProcessResult r = gpurace::testing::runProcess(
      {GPURACE_NVCC, "-arch=sm_90", "-c", output_, "-o", object});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
#else
  GTEST_SKIP() << "nvcc not found: CUDA toolkit absent, compile check skipped";
#endif
}

TEST(InstrumenterVolatileTest, VolatileAccessesAreRecordedAndStillCompileWithNvcc) {
  // A volatile store and load: the record takes their address as it is,
  // and the store still goes through the volatile pointer.
  std::string error;
  auto plan = SitePlan::load(kInputs + "/volatile_flag.plan.json", error);
  ASSERT_TRUE(plan) << error;
  ScratchDir scratch;
  const std::string &prefix = scratch.path();
  std::string output = prefix + "volatile_flag.instrumented.cu";
  InstrumentOutcome o = instrumentFile(*plan, kInputs + "/volatile_flag.cu", output, {},
                                       GPURACE_DEVICE_RUNTIME_HEADER);
  ASSERT_TRUE(o.ok) << o.error;
  EXPECT_TRUE(o.unmatched.empty());
  std::ifstream in(output);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("__gpurace_store(&(flag[0] )"), std::string::npos) << text;
  EXPECT_NE(text.find("__gpurace_rec_r(&(flag[0])"), std::string::npos) << text;
#ifdef GPURACE_NVCC
  gpurace::testing::ProcessResult r = gpurace::testing::runProcess(
      {GPURACE_NVCC, "-arch=sm_90", "-c", output, "-o", prefix + "volatile_flag.o"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
#else
  GTEST_SKIP() << "nvcc not found: CUDA toolkit absent, compile check skipped";
#endif
}

TEST(InstrumenterHostConstantTest, AStoredHostConstantIsPassedByValueAndCompilesWithNvcc) {
  // `width[0] = kLimit` with kLimit a constexpr host variable: a reference
  // to it in device code is an error of nvcc's, its value is not.
  std::string error;
  auto plan = SitePlan::load(kInputs + "/host_constant_store.plan.json", error);
  ASSERT_TRUE(plan) << error;
  ScratchDir scratch;
  std::string output = scratch.path() + "host_constant_store.instrumented.cu";
  InstrumentOutcome o = instrumentFile(*plan, kInputs + "/host_constant_store.cu", output,
                                       {}, GPURACE_DEVICE_RUNTIME_HEADER);
  ASSERT_TRUE(o.ok) << o.error;
  std::ifstream in(output);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("__gpurace_store(&(width[0] ), ( kLimit)"), std::string::npos) << text;
#ifdef GPURACE_NVCC
  gpurace::testing::ProcessResult r = gpurace::testing::runProcess(
      {GPURACE_NVCC, "-arch=sm_90", "-c", output, "-o", scratch.path() + "clamp.o"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
#else
  GTEST_SKIP() << "nvcc not found: CUDA toolkit absent, compile check skipped";
#endif
}

TEST_F(InstrumenterTest, SitesMatchingNothingAreReported) {
  ASSERT_EQ(outcome_.unmatched.size(), 1u);
  EXPECT_EQ(outcome_.unmatched[0], "s-13");
}

TEST(InstrumenterErrorsTest, AFileThatDoesNotParseIsAnErrorAndWritesNothing) {
  ScratchDir scratch;
  const std::string &prefix = scratch.path();
  std::string bad = prefix + "bad.cu";
  std::ofstream(bad) << "__global__ void k(int *a) { a[0] = undeclared; }\n";
  std::string out = prefix + "bad.out.cu";
  std::remove(out.c_str());
  InstrumentOutcome o = instrumentFile(SitePlan(), bad, out, {}, "x.cuh");
  EXPECT_FALSE(o.ok);
  EXPECT_NE(o.error.find("bad.cu:1:"), std::string::npos) << o.error;
  EXPECT_NE(o.error.find("undeclared"), std::string::npos) << o.error;
  EXPECT_FALSE(std::ifstream(out).good());
}

TEST(InstrumenterErrorsTest, ALaunchWithSpacedChevronsParsesAsNvccReadsIt) {
  ScratchDir scratch;
  const std::string &prefix = scratch.path();
  std::string source = prefix + "spaced.cu";
  std::ofstream(source) << "__global__ void k(int *a) { a[threadIdx.x] = 0; }\n"
                           "void run(int *a) { k << < 2, 64 >> > (a); }\n";
  std::string out = prefix + "spaced.out.cu";
  InstrumentOutcome o = instrumentFile(SitePlan(), source, out, {}, "x.cuh");
  ASSERT_TRUE(o.ok) << o.error;
  std::ifstream in(out);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("k <<<  2, 64 >>>  (a);"), std::string::npos) << text;
}

TEST(InstrumenterFlagsTest, KeepsOnlyTheFlagsThatMatterToParsing) {
  std::vector<std::string> flags = parseFlagsOf(
      {"nvcc", "-Iinc", "-I", "other", "-DN=4", "-O3", "-arch=sm_90",
       "-std=c++17", "-c", "k.cu", "-o", "k.o"});
  std::vector<std::string> expected = {"-Iinc", "-I", "other", "-DN=4", "-std=c++17"};
  EXPECT_EQ(flags, expected);
}

} // namespace
} // namespace gpurace::rt
