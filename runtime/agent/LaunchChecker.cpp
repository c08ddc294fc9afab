#include "runtime/agent/LaunchChecker.h"

#include "runtime/agent/AgentLog.h"
#include "runtime/report/BufferReport.h"

#include <vector>

namespace gpurace::rt {

namespace {

// Whether this thread is between the entry and the exit of a checked
// launch (and so holds the launch lock).
thread_local bool t_checking = false;

} // namespace

LaunchChecker::LaunchChecker(DeviceApi &device, CheckerConfig config,
                             ReportSink &sink)
    : device_(device), config_(std::move(config)), sink_(sink),
      buffers_(config_.buffer_bytes) {}

bool LaunchChecker::wanted(const std::string &kernel) const {
  if (!config_.filter.accepts(kernel))
    return false;
  for (const std::string &form : nameForms(kernel))
    if (config_.plan.watches(form))
      return true;
  return false;
}

v1::DeviceInfo LaunchChecker::deviceOf(DriverHandle context) {
  std::lock_guard<std::mutex> lock(devices_mutex_);
  auto known = devices_.find(context);
  if (known != devices_.end())
    return known->second;
  try {
    return devices_.emplace(context, device_.deviceInfo()).first->second;
  } catch (const std::exception &) {
    // The report is worth more than its device name.
    return {};
  }
}

LaunchFacts LaunchChecker::factsOf(const LaunchInfo &launch,
                                   const std::string &kernel) {
  LaunchFacts facts;
  facts.program = config_.program;
  facts.kernel = kernel;
  facts.launch_id = next_launch_id_++;
  facts.cooperative = launch.cooperative;
  facts.stream = launch.stream;
  facts.dynamic_shared_bytes = launch.dynamic_shared_bytes;
  facts.device = deviceOf(launch.context);
  return facts;
}

void LaunchChecker::beforeLaunch(const LaunchInfo &launch) noexcept {
  try {
    start(launch);
  } catch (...) {
    // Only memory can run out here; the launch goes unchecked.
  }
}

void LaunchChecker::start(const LaunchInfo &launch) {
  Active active;
  active.info = launch;
  std::string kernel;
  try {
    kernel = kernelName(launch.symbol);
    if (!wanted(kernel))
      return;
    active.symbol = modules_.recordBuffer(device_, launch.context, launch.function);
    if (active.symbol == 0)
      return;
  } catch (const std::exception &e) {
    disabled(launch, factsOf(launch, kernel),
             std::string("cannot tell whether the kernel is instrumented: ") +
                 e.what());
    return;
  }
  try {
    launch_mutex_.lock();
  } catch (const std::exception &e) {
    disabled(launch, factsOf(launch, kernel), e.what());
    return;
  }
  t_checking = true;
  try {
    active.facts = factsOf(launch, kernel);
    arm(active);
    active_ = std::move(active);
  } catch (const std::exception &e) {
    clearPointer(active);
    disabled(launch, active.facts, e.what());
    release();
  } catch (...) {
    release();
  }
}

// Points the module's buffer pointer at a reset buffer.
void LaunchChecker::arm(Active &active) {
  if (device_.capturing(active.info.stream))
    throw DeviceError("the launch is captured into a CUDA graph; graph "
                      "launches are not checked");
  active.buffer = buffers_.acquire(device_, active.info.context);
  device_.write(active.symbol, &active.buffer, sizeof active.buffer);
}

void LaunchChecker::afterLaunch(bool launched) noexcept {
  if (!t_checking || !active_)
    return;
  Active active = std::move(*active_);
  active_.reset();
  finish(active, launched);
  release();
}

void LaunchChecker::finish(Active &active, bool launched) noexcept {
  try {
    if (launched) {
      v1::RuntimeReport report = collect(active);
      {
        std::lock_guard<std::mutex> lock(summary_mutex_);
        ++summary_.launches_checked;
        summary_.races += report.races_size();
        summary_.records_lost += report.coverage().records_lost();
      }
      sink_.add(report);
    } else {
      // The launch did not happen (the program sees its error): nothing to
      // check and nothing to report.
      clearPointer(active);
    }
  } catch (const std::exception &e) {
    clearPointer(active);
    disabled(active.info, active.facts, e.what());
  } catch (...) {
    clearPointer(active);
  }
}

// Waits for the launch, reads its records back and runs the detector.
v1::RuntimeReport LaunchChecker::collect(Active &active) {
  device_.synchronize(active.info.stream);
  RecordBufferHeader header;
  device_.read(&header, active.buffer, sizeof header);
  if (std::string problem = checkBufferHeader(header, buffers_.capacity());
      !problem.empty())
    throw DeviceError(problem);
  std::vector<unsigned char> bytes(recordBufferBytes(recordsHeld(header)));
  device_.read(bytes.data(), active.buffer, bytes.size());
  clearPointer(active);
  LaunchLayout layout(active.info.grid, active.info.block);
  v1::RuntimeReport report;
  std::string error;
  if (!reportFromBuffer(bytes.data(), bytes.size(), layout, config_.plan,
                        active.facts, report, error))
    throw DeviceError(error);
  return report;
}

// Recording off again, so that launches the agent does not check (another
// kernel of the module, a graph replay) write nowhere.
void LaunchChecker::clearPointer(const Active &active) {
  if (active.symbol == 0)
    return;
  DevicePtr null = 0;
  try {
    device_.write(active.symbol, &null, sizeof null);
  } catch (const std::exception &e) {
    agentMessage(std::string("error: cannot turn recording off after a "
                             "launch: ") + e.what());
  }
}

void LaunchChecker::disabled(const LaunchInfo &launch, const LaunchFacts &facts,
                             const std::string &reason) noexcept {
  try {
    {
      std::lock_guard<std::mutex> lock(summary_mutex_);
      ++summary_.launches_disabled;
    }
    sink_.add(buildDisabledReport(LaunchLayout(launch.grid, launch.block),
                                  facts, reason));
  } catch (const std::exception &e) {
    agentMessage(std::string("error: ") + e.what());
  }
}

void LaunchChecker::release() noexcept {
  t_checking = false;
  launch_mutex_.unlock();
}

void LaunchChecker::moduleLoaded(const void *cubin, size_t size) noexcept {
  modules_.moduleLoaded(cubin, size);
}

void LaunchChecker::moduleUnloading() noexcept { modules_.forgetAll(); }

void LaunchChecker::contextDestroying(DriverHandle context) noexcept {
  modules_.forgetAll();
  std::lock_guard<std::mutex> lock(launch_mutex_);
  buffers_.forget(context);
  std::lock_guard<std::mutex> devices(devices_mutex_);
  devices_.erase(context);
}

AgentSummary LaunchChecker::summary() const {
  std::lock_guard<std::mutex> lock(summary_mutex_);
  AgentSummary summary = summary_;
  summary.instrumented_modules = modules_.instrumentedModules();
  return summary;
}

} // namespace gpurace::rt
