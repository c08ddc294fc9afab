// An atomic site that is a cuda::atomic_ref member call has its location
// inside the object: the rewriter leaves it unrecorded and says so, instead
// of recording the value argument as if it were the address.
#include "runtime/instrument/SourceRewriter.h"

#include <gtest/gtest.h>

namespace gpurace::rt {
namespace {

TEST(AtomicRefSiteTest, MemberCallAtomicIsUnmatchedAndUntouched) {
  RewriteRequest request;
  request.file = "ref.cu";
  request.code = R"(#include <cuda/atomic>
__global__ void globalMax(const int *x, int *result) {
  cuda::atomic_ref<int, cuda::thread_scope_block> best(*result);
  best.fetch_max(x[threadIdx.x]);
}
)";
  request.runtime_header = "DeviceRuntime.cuh";
  PlannedSite site;
  site.id = "s-ref";
  site.kind = PlannedSite::Atomic;
  site.line = 4;
  site.column = 3;
  site.end_line = 4;
  site.end_column = 32;
  request.sites = {site};
  RewriteResult result = rewriteSource(request);
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_EQ(result.unmatched, std::vector<std::string>{"s-ref"});
  EXPECT_EQ(result.output.find("__gpurace_rec_a"), std::string::npos);
}

} // namespace
} // namespace gpurace::rt
