// The agent's launch path without a GPU: host memory stands in for device
// memory, and the "kernel" replays the trace the CPU harness recorded for an
// instrumented racy kernel into whatever buffer the module's pointer names.
// Every driver failure must end as an unchecked-launch report, never as an
// exception in the program.
#include "runtime/agent/LaunchChecker.h"

#include "runtime/report/BufferReport.h"
#include "tests/support/RunProcess.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <iterator>
#include <list>
#include <set>
#include <thread>

namespace gpurace::rt {
namespace {

const std::string kInputs = "runtime/harness/tests/inputs";
constexpr DriverHandle kShift = 1, kUninstrumented = 2;
constexpr DriverHandle kStream = 7, kCapturingStream = 8, kContext = 3;

// DeviceApi on host memory: a DevicePtr is a host address. `failing` names
// the next operation to fail, as the driver would.
class HostDevice : public DeviceApi {
public:
  DevicePtr module_pointer = 0;
  std::function<void()> kernel;
  // What the driver does on the calling thread while it looks the symbol
  // up: with lazy loading it loads the module and reports that through the
  // resource callbacks.
  std::function<void()> during_lookup;
  std::string failing;
  int lookups = 0;

  DevicePtr findRecordBuffer(DriverHandle function) override {
    ++lookups;
    if (during_lookup)
      during_lookup();
    failIf("findRecordBuffer", "cuFuncGetModule: CUDA_ERROR_INVALID_HANDLE");
    return function == kShift ? DevicePtr(&module_pointer) : 0;
  }
  DevicePtr allocate(size_t bytes) override {
    failIf("allocate", "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of memory)");
    memory_.emplace_back(bytes);
    return DevicePtr(memory_.back().data());
  }
  void release(DevicePtr) noexcept override {}
  void write(DevicePtr to, const void *from, size_t bytes) override {
    failIf("write", "cuMemcpyHtoD: CUDA_ERROR_ILLEGAL_ADDRESS");
    std::memcpy(reinterpret_cast<void *>(to), from, bytes);
  }
  void read(void *to, DevicePtr from, size_t bytes) override {
    failIf("read", "cuMemcpyDtoH: CUDA_ERROR_ILLEGAL_ADDRESS");
    std::memcpy(to, reinterpret_cast<const void *>(from), bytes);
  }
  void synchronize(DriverHandle) override {
    failIf("synchronize", "cuStreamSynchronize: CUDA_ERROR_LAUNCH_FAILED");
    if (kernel)
      kernel();
  }
  bool capturing(DriverHandle stream) override { return stream == kCapturingStream; }
  v1::DeviceInfo deviceInfo() override {
    v1::DeviceInfo info;
    info.set_name("host stand-in");
    info.set_sm_architecture("sm_90");
    info.set_driver_version("13.0");
    return info;
  }

private:
  void failIf(const std::string &operation, const std::string &message) {
    if (failing == operation) {
      failing.clear();
      throw DeviceError(message);
    }
  }
  std::list<std::vector<unsigned char>> memory_;
};

class CollectingSink : public ReportSink {
public:
  std::vector<v1::RuntimeReport> reports;
  void add(const v1::RuntimeReport &report) override { reports.push_back(report); }
};

// The harness's trace of `shift<<<2, 64>>>`: its buffer, header first.
std::string g_trace;

class LaunchCheckerTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    // One directory per process: ctest runs each test in its own.
    char pattern[] = "/tmp/gpurace-agent-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    std::string dir = std::string(pattern) + "/";
    using gpurace::testing::runProcess;
    auto instrumented = runProcess(
        {gpurace::testing::gpuraceBinary(), "instrument", "--plan", kInputs + "/shift_racy.plan.json",
         kInputs + "/shift_racy.cu", "-o", dir + "agent-shift.cu"});
    ASSERT_EQ(instrumented.exit_code, 0) << instrumented.err;
    auto built = runProcess(
        {GPURACE_HOST_CXX, "-std=c++17", "-O1", "-pthread", "-I", GPURACE_SOURCE_DIR,
         "-include", GPURACE_SOURCE_DIR "/runtime/harness/CpuCuda.h", "-DDRIVE_SHIFT", "-x",
         "c++", dir + "agent-shift.cu", kInputs + "/drivers.cpp", "-o", dir + "agent-shift"});
    ASSERT_EQ(built.exit_code, 0) << built.err;
    auto ran = runProcess({dir + "agent-shift", dir + "agent-shift.trace"});
    ASSERT_EQ(ran.exit_code, 0) << ran.err;
    std::ifstream in(dir + "agent-shift.trace", std::ios::binary);
    in.ignore(6 * sizeof(unsigned));
    g_trace.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    std::filesystem::remove_all(pattern);
  }

  void SetUp() override {
    ASSERT_GT(g_trace.size(), sizeof(RecordBufferHeader)) << "no harness trace";
    std::string error;
    auto plan = SitePlan::load(kInputs + "/shift_racy.plan.json", error);
    ASSERT_TRUE(plan) << error;
    config_.program = "shift-test";
    config_.plan = *plan;
    config_.buffer_bytes = 1 << 20;
    // What the instrumented kernel does on the GPU: append its records to
    // the buffer its module's pointer names, counting what does not fit.
    device_.kernel = [this] { replayTrace(); };
  }

  void replayTrace() {
    auto *buffer = reinterpret_cast<RecordBufferHeader *>(device_.module_pointer);
    if (!buffer)
      return;
    RecordBufferHeader trace;
    std::memcpy(&trace, g_trace.data(), sizeof trace);
    uint64_t fit = std::min<uint64_t>(trace.next, buffer->capacity);
    std::memcpy(buffer + 1, g_trace.data() + sizeof trace, fit * sizeof(WarpRecord));
    buffer->next = trace.next;
    buffer->lost = trace.next - fit;
  }

  LaunchChecker &checker() {
    if (!checker_)
      checker_ = std::make_unique<LaunchChecker>(device_, config_, sink_);
    return *checker_;
  }

  LaunchInfo shiftLaunch(DriverHandle function = kShift, DriverHandle stream = kStream) {
    LaunchInfo launch;
    launch.function = function;
    launch.stream = stream;
    launch.context = kContext;
    launch.symbol = "_Z5shiftPii";
    launch.grid = {2, 1, 1};
    launch.block = {64, 1, 1};
    return launch;
  }

  void launch(const LaunchInfo &info, bool launched = true) {
    checker().beforeLaunch(info);
    checker().afterLaunch(launched);
  }

  const v1::RuntimeReport &onlyReport() {
    EXPECT_EQ(sink_.reports.size(), 1u);
    static v1::RuntimeReport none;
    return sink_.reports.empty() ? none : sink_.reports.back();
  }

  HostDevice device_;
  CheckerConfig config_;
  CollectingSink sink_;
  std::unique_ptr<LaunchChecker> checker_;
};

TEST_F(LaunchCheckerTest, ConfirmsTheHarnessRaceThroughTheWholeLaunchPath) {
  launch(shiftLaunch());
  const v1::RuntimeReport &report = onlyReport();
  EXPECT_FALSE(report.coverage().checking_disabled()) << report.coverage().disabled_reason();
  EXPECT_EQ(report.launch().kernel(), "shift");
  EXPECT_EQ(report.launch().grid_dim().x(), 2u);
  EXPECT_EQ(report.launch().block_dim().x(), 64u);
  EXPECT_EQ(report.launch().stream(), kStream);
  EXPECT_EQ(report.device().name(), "host stand-in");
  EXPECT_EQ(report.device().sm_architecture(), "sm_90");
  EXPECT_EQ(report.program(), "shift-test");
  EXPECT_GT(report.coverage().records_written(), 0u);
  EXPECT_EQ(report.coverage().records_lost(), 0u);
  std::set<v1::RaceClass> classes;
  for (const v1::ObservedRace &race : report.races()) {
    classes.insert(race.race_class());
    std::set<std::string> sites = {race.first().site_id(), race.second().site_id()};
    EXPECT_EQ(sites, (std::set<std::string>{"s-5d1e0c2a9b7f4e01", "s-5d1e0c2a9b7f4e02"}));
  }
  EXPECT_EQ(classes, (std::set<v1::RaceClass>{v1::RACE_CLASS_INTRA_WARP,
                                              v1::RACE_CLASS_INTRA_BLOCK,
                                              v1::RACE_CLASS_INTER_BLOCK}));
  EXPECT_EQ(device_.module_pointer, 0u) << "recording must be off between launches";
  AgentSummary summary = checker().summary();
  EXPECT_EQ(summary.launches_checked, 1u);
  EXPECT_EQ(summary.races, uint64_t(report.races_size()));
}

TEST_F(LaunchCheckerTest, TheModuleLoadedDuringTheSymbolLookUpIsCountedWithoutADeadlock) {
  // Under lazy loading the look-up of the record buffer loads the module,
  // and the driver calls the resource callback on the launching thread
  // before the look-up returns. The launch runs on a thread of its own so
  // that a deadlock fails the test instead of hanging it.
  const std::string cubin = std::string("\x7f" "ELF") + kRecordBufferSymbol + '\0';
  device_.during_lookup = [&] { checker().moduleLoaded(cubin.data(), cubin.size()); };
  checker();
  auto launched = std::make_shared<std::promise<void>>();
  std::future<void> done = launched->get_future();
  std::thread([this, launched] {
    launch(shiftLaunch());
    launched->set_value();
  }).detach();
  ASSERT_EQ(done.wait_for(std::chrono::seconds(30)), std::future_status::ready)
      << "the launch deadlocked in the module-loaded callback";
  EXPECT_FALSE(onlyReport().coverage().checking_disabled());
  EXPECT_EQ(checker().summary().instrumented_modules, 1u);
}

TEST_F(LaunchCheckerTest, EachLaunchStartsFromAResetBuffer) {
  launch(shiftLaunch());
  launch(shiftLaunch());
  ASSERT_EQ(sink_.reports.size(), 2u);
  EXPECT_EQ(sink_.reports[0].coverage().records_written(),
            sink_.reports[1].coverage().records_written());
  EXPECT_NE(sink_.reports[0].report_id(), sink_.reports[1].report_id());
  EXPECT_EQ(sink_.reports[1].launch().launch_id(), sink_.reports[0].launch().launch_id() + 1);
}

TEST_F(LaunchCheckerTest, UninstrumentedKernelIsLeftAlone) {
  launch(shiftLaunch(kUninstrumented));
  EXPECT_TRUE(sink_.reports.empty());
  AgentSummary summary = checker().summary();
  EXPECT_EQ(summary.launches_checked + summary.launches_disabled, 0u);
}

TEST_F(LaunchCheckerTest, FilteredKernelIsNotLookedUp) {
  config_.filter = KernelFilter({"other*"});
  launch(shiftLaunch());
  EXPECT_TRUE(sink_.reports.empty());
  EXPECT_EQ(device_.lookups, 0);
}

TEST_F(LaunchCheckerTest, FullBufferCountsTheLostRecords) {
  config_.buffer_bytes = recordBufferBytes(8);
  launch(shiftLaunch());
  const v1::RuntimeReport &report = onlyReport();
  EXPECT_EQ(report.coverage().records_written(), 8u);
  EXPECT_GT(report.coverage().records_lost(), 0u);
  EXPECT_EQ(checker().summary().records_lost, report.coverage().records_lost());
}

// Each driver failure: the launch is reported unchecked with the driver's
// words, recording is off again, and the next launch is checked normally.
TEST_F(LaunchCheckerTest, DriverFailuresDisableOnlyThatLaunch) {
  for (const char *operation : {"allocate", "write", "synchronize", "read"}) {
    SCOPED_TRACE(operation);
    sink_.reports.clear();
    device_.failing = operation;
    launch(shiftLaunch());
    launch(shiftLaunch());
    ASSERT_EQ(sink_.reports.size(), 2u);
    const v1::Coverage &failed = sink_.reports[0].coverage();
    EXPECT_TRUE(failed.checking_disabled());
    EXPECT_NE(failed.disabled_reason().find("CUDA_ERROR_"), std::string::npos)
        << failed.disabled_reason();
    EXPECT_EQ(sink_.reports[0].races_size(), 0);
    EXPECT_EQ(sink_.reports[0].launch().kernel(), "shift");
    EXPECT_FALSE(sink_.reports[1].coverage().checking_disabled());
    EXPECT_GT(sink_.reports[1].races_size(), 0);
    EXPECT_EQ(device_.module_pointer, 0u);
  }
  AgentSummary summary = checker().summary();
  EXPECT_EQ(summary.launches_disabled, 4u);
  EXPECT_EQ(summary.launches_checked, 4u);
}

TEST_F(LaunchCheckerTest, OverwrittenHeaderIsReportedNotTrusted) {
  device_.kernel = [this] {
    replayTrace();
    reinterpret_cast<RecordBufferHeader *>(device_.module_pointer)->magic = 0;
  };
  launch(shiftLaunch());
  const v1::RuntimeReport &report = onlyReport();
  EXPECT_TRUE(report.coverage().checking_disabled());
  EXPECT_NE(report.coverage().disabled_reason().find("overwritten"), std::string::npos);
}

TEST_F(LaunchCheckerTest, CapturedLaunchIsReportedUnchecked) {
  launch(shiftLaunch(kShift, kCapturingStream));
  const v1::RuntimeReport &report = onlyReport();
  EXPECT_TRUE(report.coverage().checking_disabled());
  EXPECT_NE(report.coverage().disabled_reason().find("graph"), std::string::npos);
  EXPECT_EQ(device_.module_pointer, 0u);
}

TEST_F(LaunchCheckerTest, LaunchThatFailedLeavesNoReport) {
  launch(shiftLaunch(), false);
  EXPECT_TRUE(sink_.reports.empty());
  EXPECT_EQ(device_.module_pointer, 0u);
  launch(shiftLaunch());
  EXPECT_EQ(sink_.reports.size(), 1u) << "the lock must have been released";
}

TEST_F(LaunchCheckerTest, FailedLookupIsReportedOnceThenTheKernelIsSkipped) {
  device_.failing = "findRecordBuffer";
  launch(shiftLaunch());
  launch(shiftLaunch());
  const v1::RuntimeReport &report = onlyReport();
  EXPECT_TRUE(report.coverage().checking_disabled());
  EXPECT_NE(report.coverage().disabled_reason().find("instrumented"), std::string::npos);
}

TEST_F(LaunchCheckerTest, ModuleUnloadForgetsWhatWasLookedUp) {
  launch(shiftLaunch());
  launch(shiftLaunch());
  EXPECT_EQ(device_.lookups, 1);
  checker().moduleUnloading();
  launch(shiftLaunch());
  EXPECT_EQ(device_.lookups, 2);
}

TEST(ModuleRegistry, RecognizesInstrumentedCodeByItsBufferSymbol) {
  std::string cubin = std::string("\x7f" "ELF...") + '\0' + "gpurace_record_buffer" + '\0' + "x";
  EXPECT_TRUE(cubinDefinesRecordBuffer(cubin.data(), cubin.size()));
  std::string prefix_only = std::string("gpurace_record_buffer_old") + '\0';
  EXPECT_FALSE(cubinDefinesRecordBuffer(prefix_only.data(), prefix_only.size()));
  ModuleRegistry registry;
  registry.moduleLoaded(cubin.data(), cubin.size());
  registry.moduleLoaded(prefix_only.data(), prefix_only.size());
  EXPECT_EQ(registry.instrumentedModules(), 1u);
}

#ifdef GPURACE_NVCC
// The module-load callback sees a cubin as nvcc writes it.
TEST(ModuleRegistry, RecognizesACubinNvccBuiltFromInstrumentedCode) {
  std::string cubin = ::testing::TempDir() + "sample_kernel.cubin";
  auto built = gpurace::testing::runProcess(
      {GPURACE_NVCC, "-arch=sm_90", "-cubin", "-o", cubin,
       GPURACE_SOURCE_DIR "/runtime/device/tests/sample_kernel.cu"});
  ASSERT_EQ(built.exit_code, 0) << built.err;
  std::ifstream in(cubin, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(cubinDefinesRecordBuffer(bytes.data(), bytes.size()));
}
#endif

} // namespace
} // namespace gpurace::rt
