// Kernels as launches name them (mangled) against names as users write them.
#include "runtime/agent/KernelFilter.h"

#include <gtest/gtest.h>

namespace gpurace::rt {
namespace {

TEST(KernelName, DemanglesAndDropsTheParameters) {
  EXPECT_EQ(kernelName("_Z5shiftPii"), "shift");
  EXPECT_EQ(kernelName("_ZN2ns6reduceIfEEvPT_i"), "ns::reduce<float>");
  EXPECT_EQ(kernelName("_Z6reduceIjEvPT_"), "reduce<unsigned int>");
  EXPECT_EQ(kernelName("plain_c_kernel"), "plain_c_kernel");
}

TEST(KernelFilter, EmptyFilterAcceptsEverything) {
  EXPECT_TRUE(KernelFilter().accepts("anything"));
}

TEST(KernelFilter, MatchesQualifiedUnqualifiedAndUntemplatedNames) {
  KernelFilter filter({"reduce", "ns::scan<int>", "tile*"});
  EXPECT_TRUE(filter.accepts("ns::reduce<float>"));
  EXPECT_TRUE(filter.accepts("ns::scan<int>"));
  EXPECT_FALSE(filter.accepts("ns::scan<float>"));
  EXPECT_TRUE(filter.accepts("tiled"));
  EXPECT_FALSE(filter.accepts("shift"));
}

} // namespace
} // namespace gpurace::rt
