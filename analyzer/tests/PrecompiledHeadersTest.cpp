// Precompiled forced includes (PrecompiledHeaders.h) through `gpurace
// analyze`: built once into the cache directory, giving the report a parse
// without them gives, and never in the way: a damaged or unwritable cache
// only costs the time they save.
#include "analyzer/tests/AnalyzerTestSupport.h"
#include "tests/support/RunProcess.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

namespace gpurace::analyzer::testing {
namespace {

namespace fs = std::filesystem;
using gpurace::testing::gpuraceBinary;
using gpurace::testing::ProcessResult;
using gpurace::testing::runProcess;

// A launch whose dims come from a header function's body (make_cudaExtent
// is followed into the CUDA headers): the race needs the host facts.
const char *kProgram = R"(
#include <cstdio>
__global__ void shift(int *A, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n - 1) A[t] = A[t + 1];
}
int main() {
  cudaExtent e = make_cudaExtent(1024, 1, 1);
  int *a;
  cudaMalloc(&a, e.width * sizeof(int));
  shift<<<4, 256>>>(a, (int)e.width);
  printf("done\n");
}
)";

class CacheDir {
public:
  CacheDir() {
    char pattern[] = "/tmp/gpurace-pch-XXXXXX";
    path_ = mkdtemp(pattern);
  }
  ~CacheDir() { fs::remove_all(path_); }
  const fs::path &path() const { return path_; }
  // Each precompiled header with its size and last write time.
  std::map<fs::path, std::pair<uintmax_t, fs::file_time_type>> headers() const {
    std::map<fs::path, std::pair<uintmax_t, fs::file_time_type>> out;
    if (fs::is_directory(path_))
      for (const fs::directory_entry &entry : fs::directory_iterator(path_))
        if (entry.path().extension() == ".pch")
          out[entry.path()] = {entry.file_size(), entry.last_write_time()};
    return out;
  }

private:
  fs::path path_;
};

ProcessResult analyze(const std::string &file, const std::vector<std::string> &cache_flags) {
  std::vector<std::string> argv = {gpuraceBinary(), "analyze", "--all", "--no-color", "-j", "1"};
  argv.insert(argv.end(), cache_flags.begin(), cache_flags.end());
  argv.push_back(file);
  return runProcess(argv);
}

TEST(PrecompiledHeaders, AreBuiltOnceAndChangeNothingInTheReport) {
  TempSource program(kProgram);
  CacheDir cache;
  ProcessResult plain = analyze(program.path(), {"--no-cache"});
  ASSERT_EQ(plain.exit_code, 2) << plain.err;
  ASSERT_NE(plain.out.find("inter-block data race"), std::string::npos) << plain.out;
  EXPECT_TRUE(cache.headers().empty());

  ProcessResult first = analyze(program.path(), {"--cache-dir", cache.path().string()});
  EXPECT_EQ(first.exit_code, plain.exit_code);
  EXPECT_EQ(first.out, plain.out);
  // One for the host side, one for the device side.
  auto built = cache.headers();
  ASSERT_EQ(built.size(), 2u);

  ProcessResult second = analyze(program.path(), {"--cache-dir", cache.path().string()});
  EXPECT_EQ(second.out, plain.out);
  EXPECT_EQ(cache.headers(), built) << "the second run rebuilt a precompiled header";
}

TEST(PrecompiledHeaders, ADamagedHeaderIsParsedAroundAndRebuilt) {
  TempSource program(kProgram);
  CacheDir cache;
  ProcessResult plain = analyze(program.path(), {"--no-cache"});
  ASSERT_EQ(analyze(program.path(), {"--cache-dir", cache.path().string()}).exit_code,
            plain.exit_code);
  auto built = cache.headers();
  ASSERT_EQ(built.size(), 2u);
  for (const auto &[path, size_and_time] : built)
    std::ofstream(path, std::ios::trunc) << "not a precompiled header";

  ProcessResult damaged = analyze(program.path(), {"--cache-dir", cache.path().string()});
  EXPECT_EQ(damaged.exit_code, plain.exit_code) << damaged.err;
  EXPECT_EQ(damaged.out, plain.out);
  EXPECT_TRUE(cache.headers().empty()) << "the damaged headers were left in place";

  ProcessResult rebuilt = analyze(program.path(), {"--cache-dir", cache.path().string()});
  EXPECT_EQ(rebuilt.out, plain.out);
  auto again = cache.headers();
  ASSERT_EQ(again.size(), 2u);
  for (const auto &[path, size_and_time] : again)
    EXPECT_GT(size_and_time.first, 100000u) << path;
}

TEST(PrecompiledHeaders, AnUnwritableCacheOnlyCostsTime) {
  TempSource program(kProgram);
  CacheDir cache;
  // A file where the directory would be: nothing can be written below it.
  fs::path blocked = cache.path() / "file";
  std::ofstream(blocked) << "x";
  ProcessResult plain = analyze(program.path(), {"--no-cache"});
  ProcessResult r = analyze(program.path(), {"--cache-dir", (blocked / "sub").string()});
  EXPECT_EQ(r.exit_code, plain.exit_code) << r.err;
  EXPECT_EQ(r.out, plain.out);
}

} // namespace
} // namespace gpurace::analyzer::testing
