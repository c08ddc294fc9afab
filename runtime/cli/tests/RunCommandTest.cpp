// `gpurace run` as a user's script sees it, on a machine without a GPU: the
// help prints the agent's options, the program's exit status comes back,
// bad options fail before the program starts, and a program that never
// initializes CUDA leaves an empty report file.
#include "runtime/agent/AgentOptions.h"
#include "tests/support/RunProcess.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace gpurace::testing {
namespace {

// Without CUDA at configure time there is no agent, and `gpurace run` says so
// instead of running anything.
#define REQUIRE_AGENT()                                                        \
  if (!GPURACE_AGENT_BUILT)                                                    \
  GTEST_SKIP() << "the CUDA agent is not built in this configuration"

std::string slurp(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(RunCommand, HelpPrintsEveryAgentOptionAndTheExitCodes) {
  ProcessResult r = runProcess({gpuraceBinary(), "run", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const rt::AgentOption &option : rt::agentOptionTable())
    EXPECT_NE(r.out.find(option.variable), std::string::npos) << option.variable;
  for (const char *flag : {"--server", "--token", "--report", "--plan", "--fail-on-race"})
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
  EXPECT_NE(r.out.find("Exit codes:"), std::string::npos);
}

TEST(RunCommand, ProgramThatNeverUsesCudaLeavesAnEmptyReport) {
  REQUIRE_AGENT();
  std::string report = ::testing::TempDir() + "run-true.jsonl";
  std::ofstream(report) << "stale line from an earlier run\n";
  ProcessResult r = runProcess({gpuraceBinary(), "run", "--report", report, "--", "/bin/true"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(slurp(report), "");
  EXPECT_NE(r.err.find("no launch checked"), std::string::npos) << r.err;
}

TEST(RunCommand, ReturnsTheProgramsExitStatus) {
  REQUIRE_AGENT();
  ProcessResult r = runProcess({gpuraceBinary(), "run", "--", "/bin/sh", "-c", "exit 3"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  ProcessResult killed =
      runProcess({gpuraceBinary(), "run", "--", "/bin/sh", "-c", "kill -TERM $$"});
  EXPECT_EQ(killed.exit_code, 128 + 15) << killed.err;
}

TEST(RunCommand, PassesTheOptionsToTheProgramsEnvironment) {
  REQUIRE_AGENT();
  ProcessResult r = runProcess({gpuraceBinary(), "run", "--kernels", "shift,tile*", "--",
                                "/bin/sh", "-c",
                                "echo \"$GPURACE_KERNELS|${CUDA_INJECTION64_PATH##*/}\""});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "shift,tile*|libgpurace_agent.so\n");
}

TEST(RunCommand, BadOptionFailsBeforeTheProgramRuns) {
  REQUIRE_AGENT();
  std::string marker = ::testing::TempDir() + "run-bad-option-ran";
  std::remove(marker.c_str());
  ProcessResult r = runProcess(
      {gpuraceBinary(), "run", "--buffer-size", "12Q", "--", "/bin/touch", marker});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("GPURACE_BUFFER_SIZE=12Q"), std::string::npos) << r.err;
  EXPECT_FALSE(std::ifstream(marker).good());
  ProcessResult env = runProcess({"/usr/bin/env", "GPURACE_SERVER=127.0.0.1:1",
                                  gpuraceBinary(), "run", "--", "/bin/true"});
  EXPECT_EQ(env.exit_code, 1);
  EXPECT_NE(env.err.find("GPURACE_PROJECT"), std::string::npos) << env.err;
}

TEST(RunCommand, MissingProgramOrAgentIsAnError) {
  REQUIRE_AGENT();
  ProcessResult none = runProcess({gpuraceBinary(), "run"});
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("after --"), std::string::npos) << none.err;
  ProcessResult missing = runProcess({gpuraceBinary(), "run", "--", "/nonexistent/program"});
  EXPECT_EQ(missing.exit_code, 127);
  EXPECT_NE(missing.err.find("/nonexistent/program"), std::string::npos) << missing.err;
  ProcessResult agent = runProcess(
      {gpuraceBinary(), "run", "--agent", "/nonexistent/libagent.so", "--", "/bin/true"});
  EXPECT_EQ(agent.exit_code, 1);
  EXPECT_NE(agent.err.find("/nonexistent/libagent.so"), std::string::npos) << agent.err;
}

TEST(RunCommand, WithoutTheAgentSaysItIsNotBuilt) {
  if (GPURACE_AGENT_BUILT)
    GTEST_SKIP() << "the agent is built in this configuration";
  ProcessResult r = runProcess({gpuraceBinary(), "run", "--", "/bin/true"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("not built"), std::string::npos) << r.err;
}

#ifdef GPURACE_NVCC
// With no GPU the CUDA runtime reports an error and the program carries on;
// under the agent it must do exactly the same.
TEST(RunCommand, CudaProgramWithoutAGpuExitsNormally) {
  REQUIRE_AGENT();
  std::string binary = ::testing::TempDir() + "no-gpu-cuda-program";
  ProcessResult built = runProcess({GPURACE_NVCC, "-arch=sm_90", "-o", binary,
                                    GPURACE_RUN_TEST_INPUTS "/no_gpu_cuda_program.cu"});
  ASSERT_EQ(built.exit_code, 0) << built.err;
  ProcessResult alone = runProcess({binary});
  std::string report = ::testing::TempDir() + "no-gpu-cuda-program.jsonl";
  ProcessResult watched =
      runProcess({gpuraceBinary(), "run", "--report", report, "--", binary});
  EXPECT_EQ(watched.exit_code, alone.exit_code) << watched.err;
  EXPECT_EQ(watched.out, alone.out);
}
#endif

} // namespace
} // namespace gpurace::testing
