// `gpurace analyze --perf`: the hardware's pricing of one warp's access
// (WarpCost), and the checks that find the warps to price.
#include "analyzer/perf/WarpCost.h"
#include "analyzer/report/PerfReport.h"
#include "analyzer/tests/AnalyzerTestSupport.h"
#include "tests/support/RunProcess.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace gpurace::analyzer::testing {
namespace {

using gpurace::testing::gpuraceBinary;
using gpurace::testing::ProcessResult;
using gpurace::testing::runProcess;

std::vector<LaneOffset> strided(int64_t stride_bytes, unsigned lanes = 32) {
  std::vector<LaneOffset> out;
  for (unsigned l = 0; l < lanes; ++l)
    out.push_back({l, l * stride_bytes});
  return out;
}

TEST(WarpCost, BankConflictDegreeIsTheMostWordsOneBankServes) {
  EXPECT_EQ(bankConflict(strided(4), 4).degree, 1u);
  EXPECT_EQ(bankConflict(strided(8), 4).degree, 2u);
  BankConflict column = bankConflict(strided(128), 4);
  EXPECT_EQ(column.degree, 32u);
  EXPECT_EQ(column.bank, 0u);
  EXPECT_EQ(column.lanes.size(), 32u);
  // 33 words a row: every lane its own bank.
  EXPECT_EQ(bankConflict(strided(132), 4).degree, 1u);
}

TEST(WarpCost, LanesReadingOneWordShareIt) {
  EXPECT_EQ(bankConflict(strided(0), 4).degree, 1u);
  // Bytes of one word are one word: a char per lane, four lanes a word.
  EXPECT_EQ(bankConflict(strided(1), 1).degree, 1u);
}

TEST(WarpCost, WideAccessesAreServedAHalfOrAQuarterWarpAtATime) {
  EXPECT_EQ(lanesPerBankPass(4), 32u);
  EXPECT_EQ(lanesPerBankPass(8), 16u);
  EXPECT_EQ(lanesPerBankPass(16), 8u);
  // Consecutive doubles: each half warp covers the 32 banks once.
  EXPECT_EQ(bankConflict(strided(8), 8).degree, 1u);
  // Every second double: lanes t and t + 8 of a half warp share banks.
  EXPECT_EQ(bankConflict(strided(16), 8).degree, 2u);
  EXPECT_EQ(bankConflict(strided(16), 16).degree, 1u);
}

TEST(WarpCost, SectorsAgainstWhatContiguousBytesNeed) {
  SectorCount unit = sectorCount(strided(4), 4);
  EXPECT_EQ(unit.sectors, 4u);
  EXPECT_EQ(unit.best, 4u);
  SectorCount every_second = sectorCount(strided(8), 4);
  EXPECT_EQ(every_second.sectors, 8u);
  EXPECT_EQ(every_second.best, 4u);
  SectorCount broadcast = sectorCount(strided(0), 4);
  EXPECT_EQ(broadcast.sectors, 1u);
  EXPECT_EQ(broadcast.best, 1u);
  // Shifted by one float: the warp's 128 bytes straddle five sectors.
  std::vector<LaneOffset> shifted = strided(4);
  for (LaneOffset &lane : shifted)
    lane.offset += 4;
  EXPECT_EQ(sectorCount(shifted, 4).sectors, 5u);
}

const char *kTranspose = R"(
__global__ void transposeTile(const float *in, float *out, int n) {
  __shared__ float tile[32][PAD];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}
int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 22);
  cudaMalloc(&out, 1 << 22);
  transposeTile<<<dim3(32, 32), dim3(32, 32)>>>(in, out, 1024);
}
)";

std::string withPad(int pad) {
  std::string code = kTranspose;
  code.replace(code.find("PAD"), 3, std::to_string(pad));
  return code;
}

const v1::PerfFinding *perfAt(const v1::AnalysisResult &result, unsigned line,
                              v1::PerfKind kind) {
  for (const v1::PerfFinding &f : result.perf_findings())
    if (f.site().location().line() == line && f.kind() == kind)
      return &f;
  return nullptr;
}

AnalyzeOptions withPerf() {
  AnalyzeOptions options;
  options.perf = true;
  // The resource limit, which is deterministic, decides what a query proves:
  // a sanitizer build or a busy machine is several times slower on the clock.
  options.query_timeout_ms = 10 * 60 * 1000;
  return options;
}

TEST(PerfCheck, ColumnReadOfAnUnpaddedTileIsA32WayConflictWithItsLanes) {
  v1::AnalysisResult result = analyzeCode(withPad(32), withPerf());
  const v1::PerfFinding *read = perfAt(result, 9, v1::PERF_KIND_BANK_CONFLICT);
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(read->cost(), 32u);
  EXPECT_FALSE(read->proved());
  EXPECT_FALSE(read->below_threshold());
  EXPECT_EQ(read->lanes_size(), 32);
  EXPECT_EQ(read->block_dim().x(), 32u);
  EXPECT_NE(read->message().find("32-way bank conflict on 'tile'"), std::string::npos)
      << read->message();
  const v1::PerfFinding *write = perfAt(result, 5, v1::PERF_KIND_BANK_CONFLICT);
  ASSERT_NE(write, nullptr);
  EXPECT_TRUE(write->proved());
  EXPECT_EQ(write->cost(), 1u);
}

TEST(PerfCheck, PaddingTheTileProvesTheColumnReadConflictFree) {
  // Z3's search follows the order in which its terms were made, and a
  // sanitizer's allocator changes that order: the column read's proof,
  // settled at a quarter of the default effort on a normal build, takes
  // five times the default under ASan. Ten times leaves room for both.
  AnalyzeOptions options = withPerf();
  options.query_rlimit = 4000000;
  v1::AnalysisResult result = analyzeCode(withPad(33), options);
  const v1::PerfFinding *read = perfAt(result, 9, v1::PERF_KIND_BANK_CONFLICT);
  ASSERT_NE(read, nullptr);
  EXPECT_TRUE(read->proved());
  EXPECT_EQ(read->cost(), 1u);
  const v1::PerfFinding *load = perfAt(result, 5, v1::PERF_KIND_UNCOALESCED);
  ASSERT_NE(load, nullptr);
  EXPECT_TRUE(load->proved());
}

TEST(PerfCheck, AStridedLoadNamesTheStrideAndTheSectors) {
  v1::AnalysisResult result = analyzeCode(R"(
__global__ void gather(const float *in, float *out, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i * stride];
  out[i] = x;
}
int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 22);
  cudaMalloc(&out, 1 << 20);
  gather<<<1024, 256>>>(in, out, 2);
}
)",
                                          withPerf());
  const v1::PerfFinding *load = perfAt(result, 4, v1::PERF_KIND_UNCOALESCED);
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->cost(), 8u);
  EXPECT_EQ(load->best(), 4u);
  EXPECT_EQ(load->stride_bytes(), 8);
  EXPECT_NE(load->message().find("8 bytes apart"), std::string::npos) << load->message();
  const v1::PerfFinding *store = perfAt(result, 5, v1::PERF_KIND_UNCOALESCED);
  ASSERT_NE(store, nullptr);
  EXPECT_TRUE(store->proved());
}

// The pitch and stride come from the command line: the host facts leave
// them free, the witness picks a costly value, and a value with which the
// access is proved free is named.
const char *kPitchFromTheCommandLine = R"(
#include <cstdlib>
__global__ void columnSums(const float *in, float *sums, int pitch) {
  extern __shared__ float tile[];
  for (int c = 0; c < 32; ++c)
    tile[c * pitch + threadIdx.x] = in[blockIdx.x * 1024 + c * 32 + threadIdx.x];
  __syncthreads();
  float s = 0;
  for (int c = 0; c < 32; ++c)
    s += tile[threadIdx.x * pitch + c];
  sums[blockIdx.x * 32 + threadIdx.x] = s;
  sums[(blockIdx.x * 32 + threadIdx.x) * pitch] = s;
}
int main(int argc, char **argv) {
  int pitch = atoi(argv[1]);
  if (pitch < 32 || pitch > 4096)
    return 1;
  float *in, *sums;
  cudaMalloc(&in, 1 << 22);
  cudaMalloc(&sums, 1 << 28);
  columnSums<<<64, 32, 32 * pitch * sizeof(float)>>>(in, sums, pitch);
}
)";

TEST(PerfCheck, ACostThatDependsOnAnUnknownLaunchValueNamesAValueThatIsFree) {
  v1::AnalysisResult result = analyzeCode(kPitchFromTheCommandLine, withPerf());
  auto parameter = [](const v1::PerfFinding &f, const std::string &name) {
    for (const v1::NamedValue &p : f.parameters())
      if (p.name() == name)
        return p.value();
    return std::string("none");
  };
  const v1::PerfFinding *column = perfAt(result, 10, v1::PERF_KIND_BANK_CONFLICT);
  ASSERT_NE(column, nullptr);
  EXPECT_EQ(column->cost(), 32u);
  ASSERT_EQ(column->free_when_size(), 1);
  const v1::FreeCondition &padded = column->free_when(0);
  EXPECT_EQ(padded.name(), "pitch");
  EXPECT_EQ(std::to_string(padded.witness_value()), parameter(*column, "pitch"));
  // A multiple of 32 words is the 32-way conflict; one word more or less
  // puts every lane in its own bank.
  EXPECT_EQ(padded.witness_value() % 32, 0);
  EXPECT_EQ(std::abs(padded.equals() - padded.witness_value()), 1);
  EXPECT_NE(column->message().find("no conflict whenever 'pitch' = " +
                                   std::to_string(padded.equals())),
            std::string::npos)
      << column->message();
  ASSERT_EQ(column->imprecisions_size(), 1);
  EXPECT_NE(column->imprecisions(0).detail().find("atoi"), std::string::npos);

  const v1::PerfFinding *scattered = perfAt(result, 12, v1::PERF_KIND_UNCOALESCED);
  ASSERT_NE(scattered, nullptr);
  EXPECT_EQ(scattered->cost(), 32u);
  // Only a pitch of 1 would be coalesced, and the host rules it out: no
  // launch has it, so it is not claimed.
  EXPECT_EQ(scattered->free_when_size(), 0);
  EXPECT_GE(std::stoi(parameter(*scattered, "pitch")), 32);

  // The row write is conflict-free for every pitch: nothing to name.
  const v1::PerfFinding *row = perfAt(result, 6, v1::PERF_KIND_BANK_CONFLICT);
  ASSERT_NE(row, nullptr);
  EXPECT_TRUE(row->proved());
  EXPECT_EQ(row->free_when_size(), 0);
}

TEST(PerfCheck, ALoopValueThatDiffersPerThreadIsNotTakenAsTheWarpsOne) {
  // pos starts at the thread's own column and wraps: the model keeps only
  // its range, which would let every lane take the same value (a 16-way
  // conflict the program does not have). The stride loop's s is uniform.
  v1::AnalysisResult result = analyzeCode(R"(
__global__ void sums(unsigned *out, int rounds) {
  __shared__ unsigned char bytes[64 * 64];
  __shared__ float partial[256];
  unsigned pos = 4 * (threadIdx.x & 15), sum = 0;
  for (int i = 0; i < rounds; ++i) {
    sum += bytes[threadIdx.x * 64 + pos];
    pos = (pos + 4 + sum) & 63;
  }
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * threadIdx.x;
    if (index < blockDim.x)
      partial[index] += partial[index + s];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = partial[threadIdx.x];
}
int main() {
  unsigned *out;
  cudaMalloc(&out, 1 << 20);
  sums<<<64, 256>>>(out, 16);
}
)",
                                          withPerf());
  EXPECT_EQ(perfAt(result, 7, v1::PERF_KIND_BANK_CONFLICT), nullptr);
  const v1::PerfFinding *step = perfAt(result, 15, v1::PERF_KIND_BANK_CONFLICT);
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(step->cost(), 8u);
  EXPECT_TRUE(step->in_loop());
  ASSERT_EQ(step->imprecisions_size(), 1);
  EXPECT_EQ(step->imprecisions(0).kind(), v1::IMPRECISION_KIND_LOOP_OVERAPPROXIMATED);
}

TEST(PerfCheck, WithoutThePerfOptionNothingIsPriced) {
  EXPECT_EQ(analyzeCode(withPad(32)).perf_findings_size(), 0);
}

TEST(PerfCheck, TwoWayConflictsOutsideLoopsAreUnderTheDefaultThreshold) {
  v1::PerfFinding finding;
  finding.set_kind(v1::PERF_KIND_BANK_CONFLICT);
  finding.set_cost(2);
  finding.set_best(1);
  finalizePerfFinding(finding, 0);
  EXPECT_TRUE(finding.below_threshold());
  finding.set_in_loop(true);
  finalizePerfFinding(finding, 0);
  EXPECT_FALSE(finding.below_threshold());
  finding.set_in_loop(false);
  finalizePerfFinding(finding, 2);
  EXPECT_FALSE(finding.below_threshold());
}

TEST(PerfCheck, PerfFindingsChangeTheExitCodeOnlyWithPerfFail) {
  TempSource source(withPad(32));
  ProcessResult plain = runProcess({gpuraceBinary(), "analyze", "--perf", source.path()});
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.out.find("[gpurace-perf-bank-conflict]"), std::string::npos) << plain.out;
  EXPECT_NE(plain.out.find("1 perf finding"), std::string::npos) << plain.out;
  ProcessResult failing =
      runProcess({gpuraceBinary(), "analyze", "--perf", "--perf-fail", source.path()});
  EXPECT_EQ(failing.exit_code, 2);
  ProcessResult misuse = runProcess({gpuraceBinary(), "analyze", "--perf-fail", source.path()});
  EXPECT_EQ(misuse.exit_code, 1);
  EXPECT_NE(misuse.err.find("--perf-fail needs --perf"), std::string::npos) << misuse.err;
  TempSource padded(withPad(33));
  EXPECT_EQ(
      runProcess({gpuraceBinary(), "analyze", "--perf", "--perf-fail", padded.path()}).exit_code,
      0);
}

TEST(PerfCheck, SarifHasARuleAndAResultPerPerfFinding) {
  TempSource source(withPad(32));
  ProcessResult r =
      runProcess({gpuraceBinary(), "analyze", "--perf", "--format=sarif", source.path()});
  EXPECT_NE(r.out.find("\"id\": \"gpurace-perf-bank-conflict\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"ruleId\": \"gpurace-perf-bank-conflict\""), std::string::npos);
  EXPECT_NE(r.out.find("\"id\": \"gpurace-perf-uncoalesced\""), std::string::npos);
}

} // namespace
} // namespace gpurace::analyzer::testing
