// How compiler commands from compile_commands.json and the command line
// become the flags of a parse, and how the CUDA toolkit is found.
#include "analyzer/frontend/CompileFlags.h"
#include "analyzer/frontend/CudaToolkit.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace gpurace::analyzer {
namespace {

bool contains(const std::vector<std::string> &v, const std::string &s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// The value that follows `flag` in `v`, or "".
std::string after(const std::vector<std::string> &v, const std::string &flag) {
  auto it = std::find(v.begin(), v.end(), flag);
  return it == v.end() || it + 1 == v.end() ? "" : *(it + 1);
}

TEST(CompileFlags, NvccCommandKeepsWhatShapesTheParse) {
  ParsingFlags flags = parsingFlags(
      {"/usr/local/cuda/bin/nvcc", "-I/src/include", "-I", "common", "-DUSE_FAST=1",
       "--expt-relaxed-constexpr", "-gencode", "arch=compute_80,code=sm_80", "-Xcompiler",
       "-fPIC,-DFROM_HOST,-Wall", "-rdc=true", "-O3", "-lineinfo", "-o",
       "obj/kernel.o", "-c", "src/kernel.cu", "--std", "c++14"});
  EXPECT_TRUE(contains(flags.flags, "-I/src/include"));
  EXPECT_EQ(after(flags.flags, "-I"), "common");
  EXPECT_TRUE(contains(flags.flags, "-DUSE_FAST=1"));
  EXPECT_TRUE(contains(flags.flags, "-DFROM_HOST"));
  EXPECT_TRUE(contains(flags.flags, "-fgpu-rdc"));
  EXPECT_TRUE(contains(flags.flags, "-std=c++14"));
  EXPECT_EQ(flags.gpu_arch, "sm_80");
  // Neither the output nor the source file is a flag of the parse.
  EXPECT_FALSE(contains(flags.flags, "obj/kernel.o"));
  EXPECT_FALSE(contains(flags.flags, "src/kernel.cu"));
  EXPECT_FALSE(contains(flags.flags, "-O3"));
  EXPECT_TRUE(flags.dropped.empty()) << flags.dropped.front();
}

TEST(CompileFlags, UnknownFlagsOfACompileCommandAreDroppedAndListed) {
  ParsingFlags flags =
      parsingFlags({"nvcc", "--some-future-flag", "-Ikeep", "-frobnicate", "a.cu"});
  EXPECT_TRUE(contains(flags.flags, "-Ikeep"));
  EXPECT_EQ(flags.dropped, (std::vector<std::string>{"--some-future-flag", "-frobnicate"}));
}

TEST(CompileFlags, NvccArchitectureSpellings) {
  EXPECT_EQ(parsingFlags({"nvcc", "-arch=sm_90"}).gpu_arch, "sm_90");
  EXPECT_EQ(parsingFlags({"nvcc", "-arch", "compute_86"}).gpu_arch, "sm_86");
  EXPECT_EQ(parsingFlags({"nvcc", "--gpu-architecture=sm_75"}).gpu_arch, "sm_75");
  EXPECT_EQ(parsingFlags({"nvcc", "-gencode=arch=compute_70,code=[sm_70,compute_70]"}).gpu_arch,
            "sm_70");
  EXPECT_EQ(parsingFlags({"nvcc", "-arch=native"}).gpu_arch, "");
  EXPECT_EQ(targetArch(""), "sm_75");
}

TEST(CompileFlags, CommandLineFlagsPassUnknownOnesToClang) {
  ParsingFlags flags = commandLineFlags({"-I", "Common", "-arch=sm_80", "-Wno-foo",
                                         "-fms-extensions", "-x", "cu"});
  EXPECT_EQ(after(flags.flags, "-I"), "Common");
  EXPECT_TRUE(contains(flags.flags, "-fms-extensions"));
  EXPECT_FALSE(contains(flags.flags, "cu"));
  EXPECT_EQ(flags.gpu_arch, "sm_80");
}

TEST(CompileFlags, HostAndDeviceParsesOfACudaFile) {
  HeaderSetup fallback;
  ParsingFlags none;
  auto host = clangArguments("k.cu", none, fallback, ParseSide::Host);
  auto device = clangArguments("k.cu", none, fallback, ParseSide::Device);
  EXPECT_TRUE(contains(host, "--cuda-host-only"));
  EXPECT_TRUE(contains(device, "--cuda-device-only"));
  EXPECT_TRUE(contains(device, "--cuda-gpu-arch=sm_75"));
  EXPECT_TRUE(contains(host, "-fgpu-rdc"));
  EXPECT_TRUE(contains(device, "-fgpu-rdc"));
  EXPECT_TRUE(contains(host, "-nocudainc"));
  EXPECT_EQ(host.back(), "k.cu");
  // A host C++ file is parsed as C++ only.
  auto cpp = clangArguments("main.cpp", none, fallback, ParseSide::Host);
  EXPECT_EQ(after(cpp, "-x"), "c++");
  EXPECT_FALSE(contains(cpp, "--cuda-host-only"));
  EXPECT_FALSE(contains(cpp, "-fgpu-rdc"));
}

// A fake toolkit: just the two headers the search looks at.
class FakeToolkit {
public:
  explicit FakeToolkit(int version) {
    char pattern[] = "/tmp/gpurace-toolkit-XXXXXX";
    root_ = mkdtemp(pattern);
    std::filesystem::create_directories(root_ + "/include");
    std::ofstream(root_ + "/include/cuda_runtime.h") << "// runtime\n";
    std::ofstream(root_ + "/include/cuda.h") << "#define CUDA_VERSION " << version << "\n";
  }
  ~FakeToolkit() { std::filesystem::remove_all(root_); }
  const std::string &root() const { return root_; }

private:
  std::string root_;
};

TEST(CudaToolkit, VersionComesFromCudaH) {
  FakeToolkit fake(12040);
  std::string error;
  auto toolkit = cudaToolkitAt(fake.root(), error);
  ASSERT_TRUE(toolkit) << error;
  EXPECT_EQ(toolkit->version, "12.4");
  EXPECT_EQ(toolkit->version_number, 12040);
}

TEST(CudaToolkit, AnExplicitPathThatIsNoToolkitIsAnError) {
  std::string error;
  EXPECT_FALSE(findCudaToolkit("/nonexistent/cuda", error));
  EXPECT_NE(error.find("--cuda-path"), std::string::npos) << error;
  EXPECT_NE(error.find("/nonexistent/cuda"), std::string::npos) << error;
}

TEST(CudaToolkit, CudaPathVariableComesFirst) {
  FakeToolkit fake(13000);
  setenv("CUDA_PATH", fake.root().c_str(), 1);
  std::string error;
  auto toolkit = findCudaToolkit("", error);
  unsetenv("CUDA_PATH");
  ASSERT_TRUE(toolkit);
  EXPECT_EQ(toolkit->found_by, "CUDA_PATH");
  EXPECT_EQ(toolkit->version, "13.0");
}

} // namespace
} // namespace gpurace::analyzer
