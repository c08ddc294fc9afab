// The real agent library, started the way the driver starts it, against
// CUDA's stub driver (no GPU needed): CUPTI cannot attach, and the program
// must run on with checking off and the reason in the summary.
#include "tests/support/RunProcess.h"

#include <gtest/gtest.h>

namespace gpurace::testing {
namespace {

const std::string kStubPath = "LD_LIBRARY_PATH=" GPURACE_STUB_DRIVER_DIR;

TEST(Injection, FailedStartLeavesTheProgramRunningAndSaysWhy) {
  ProcessResult r = runProcess({gpuraceBinary(), "run", "--agent", GPURACE_AGENT_LIBRARY,
                                "--", "/usr/bin/env", kStubPath, GPURACE_INJECTION_PROBE});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "InitializeInjection returned 1\n");
  EXPECT_NE(r.err.find("race checking is off for this run"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("gpurace run: the agent could not start: cupti"), std::string::npos)
      << r.err;
}

TEST(Injection, BadOptionInTheEnvironmentTurnsCheckingOffWithItsName) {
  ProcessResult r = runProcess({"/usr/bin/env", kStubPath, "GPURACE_QUIET=maybe",
                                "CUDA_INJECTION64_PATH=" GPURACE_AGENT_LIBRARY,
                                GPURACE_INJECTION_PROBE});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("gpurace: error: GPURACE_QUIET=maybe: expected 0 or 1"),
            std::string::npos)
      << r.err;
}

} // namespace
} // namespace gpurace::testing
