// Inline PTX that names special registers with a single `%`, as nvcc
// accepts it: the `%` is doubled inside asm strings only, operands and
// everything else are left alone, and a kernel reading a lane id that way
// is analyzed.
#include "analyzer/frontend/PtxRegisterNames.h"
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

namespace gpurace::analyzer::testing {
namespace {

std::string escapedText(const std::string &text) {
  return escapePtxRegisterNames(text).value_or("(unchanged)");
}

TEST(PtxRegisterNames, ASpecialRegisterInAnAsmStringIsEscaped) {
  EXPECT_EQ(escapedText(R"(asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));)"),
            R"(asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));)");
  EXPECT_EQ(escapedText(R"(__asm__ __volatile__ ("mov.u32 %0, %laneid;" : "=r"(l)))"),
            R"(__asm__ __volatile__ ("mov.u32 %0, %%laneid;" : "=r"(l)))");
  EXPECT_EQ(escapedText("asm(\"mov.u32 %0, %tid.x;\"\n    \"add.u32 %0, %0, %ctaid.x;\" "
                        ": \"=r\"(x));"),
            "asm(\"mov.u32 %0, %%tid.x;\"\n    \"add.u32 %0, %0, %%ctaid.x;\" "
            ": \"=r\"(x));");
}

TEST(PtxRegisterNames, OperandsModifiersAndTextOutsideAsmAreLeftAlone) {
  // Operands, named operands, a modifier with its operand, an escaped %.
  EXPECT_EQ(escapedText(R"(asm("add.s32 %0, %1, %[b]; mov %c2, %%clock;" : "=r"(x)
      : "r"(y), [b] "r"(z), "n"(3));)"),
            "(unchanged)");
  // printf formats, comments and identifiers that contain "asm".
  EXPECT_EQ(escapedText(R"(printf("%d %s\n", a, s); // asm("%laneid")
int plasma = 1; /* __asm__("%smid") */)"),
            "(unchanged)");
}

TEST(PtxRegisterNames, AKernelReadingItsLaneThroughInlinePtxIsAnalyzed) {
  auto result = analyzeCode(R"(
__device__ unsigned lane() {
  unsigned id;
  asm volatile("mov.u32 %0, %laneid;" : "=r"(id));
  return id;
}
__global__ void spread(int *out) {
  out[blockIdx.x] = lane();
}
int main() {
  int *out;
  cudaMalloc(&out, 64 * sizeof(int));
  spread<<<64, 32>>>(out);
}
)");
  EXPECT_EQ(result.errors_size(), 0) << result.DebugString();
  EXPECT_EQ(result.kernels_analyzed(), 1) << result.DebugString();
  // Every thread of a block writes the block's element: a race whatever
  // the asm returns.
  EXPECT_FALSE(findings(result).empty()) << result.DebugString();
}

} // namespace
} // namespace gpurace::analyzer::testing
