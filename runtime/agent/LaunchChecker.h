//===- LaunchChecker.h - one launch, from its entry to its report -*- C++ -*-===//
//
// The agent's core, driven by the launch callbacks but free of CUPTI so
// that tests run it on host memory:
//   before the launch: is the kernel instrumented and wanted? then reset the
//     context's buffer and point the module's `gpurace_record_buffer` at it;
//   after the launch: wait for it, copy the records back, clear the pointer,
//     run the detector and hand the report to the sinks.
// Checked launches run one at a time (the pointer is per module, not per
// launch): the checker holds its lock from the entry to the exit callback
// of the launching thread.
//
// Nothing here may take the program down: every failure (a driver error, a
// malformed buffer, memory) ends checking for that launch only, and its
// report says why.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_AGENT_LAUNCHCHECKER_H
#define GPURACE_RUNTIME_AGENT_LAUNCHCHECKER_H

#include "runtime/agent/AgentSummary.h"
#include "runtime/agent/DeviceApi.h"
#include "runtime/agent/KernelFilter.h"
#include "runtime/agent/LaunchBuffers.h"
#include "runtime/agent/ModuleRegistry.h"
#include "runtime/agent/ReportSink.h"
#include "runtime/report/RaceReport.h"

#include <atomic>
#include <map>
#include <mutex>
#include <optional>

namespace gpurace::rt {

struct LaunchInfo {
  DriverHandle function = 0;
  DriverHandle stream = 0;
  DriverHandle context = 0;
  // The kernel's symbol as the launch names it (mangled for C++ kernels).
  std::string symbol;
  Dims grid, block;
  uint32_t dynamic_shared_bytes = 0;
  bool cooperative = false;
};

struct CheckerConfig {
  std::string program;
  SitePlan plan;
  KernelFilter filter;
  uint64_t buffer_bytes = 64ull << 20;
};

class LaunchChecker {
public:
  LaunchChecker(DeviceApi &device, CheckerConfig config, ReportSink &sink);

  // On the launching thread, before the launch runs.
  void beforeLaunch(const LaunchInfo &launch) noexcept;
  // On the same thread, after the launch call returned; `launched`: it
  // succeeded.
  void afterLaunch(bool launched) noexcept;

  void moduleLoaded(const void *cubin, size_t size) noexcept;
  void moduleUnloading() noexcept;
  void contextDestroying(DriverHandle context) noexcept;

  AgentSummary summary() const;

private:
  struct Active {
    LaunchInfo info;
    LaunchFacts facts;
    DevicePtr symbol = 0;
    DevicePtr buffer = 0;
  };

  void start(const LaunchInfo &launch);
  void finish(Active &active, bool launched) noexcept;
  bool wanted(const std::string &kernel) const;
  LaunchFacts factsOf(const LaunchInfo &launch, const std::string &kernel);
  v1::DeviceInfo deviceOf(DriverHandle context);
  void arm(Active &active);
  v1::RuntimeReport collect(Active &active);
  void clearPointer(const Active &active);
  void disabled(const LaunchInfo &launch, const LaunchFacts &facts,
                const std::string &reason) noexcept;
  void release() noexcept;

  DeviceApi &device_;
  CheckerConfig config_;
  ReportSink &sink_;
  ModuleRegistry modules_;
  // Held from the entry to the exit of a checked launch.
  std::mutex launch_mutex_;
  std::optional<Active> active_;
  LaunchBuffers buffers_;
  std::mutex devices_mutex_;
  std::map<DriverHandle, v1::DeviceInfo> devices_;
  std::atomic<uint64_t> next_launch_id_{1};
  mutable std::mutex summary_mutex_;
  AgentSummary summary_;
};

} // namespace gpurace::rt

#endif
