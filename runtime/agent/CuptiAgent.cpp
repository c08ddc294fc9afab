//===- CuptiAgent.cpp - libgpurace_agent.so, loaded by the CUDA driver -*- C++ -*-===//
//
// The driver loads this library at cuInit when CUDA_INJECTION64_PATH names
// it and calls InitializeInjection. The agent reads its options from the
// environment, subscribes to CUPTI's driver-API launch callbacks (plain,
// per-thread-stream, extended and cooperative launches) and to module and
// context resource callbacks, and hands each launch to the LaunchChecker.
// At exit it delivers pending reports and writes its summary.
//
// Whatever goes wrong, the program runs on: a bad option or a failed
// subscription turns checking off for the run (and says so), a failure
// during a launch turns it off for that launch.
//
//===----------------------------------------------------------------------===//
#include "runtime/agent/AgentLog.h"
#include "runtime/agent/AgentOptions.h"
#include "runtime/agent/DriverDevice.h"
#include "runtime/agent/LaunchChecker.h"
#include "runtime/agent/ServerReports.h"

#include <cuda.h>
#include <cupti.h>

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <memory>

namespace gpurace::rt {

namespace {

// Lives until the process ends: callbacks may come from any thread until
// then, so it is never destroyed.
struct Agent {
  AgentOptions options;
  DriverDevice device;
  SinkSet sinks;
  std::unique_ptr<LaunchChecker> checker;
  AgentSummary startup;
};

Agent *g_agent = nullptr;

DriverHandle handle(const void *p) { return reinterpret_cast<DriverHandle>(p); }

// A per-thread-stream launch (the _ptsz entry points) on stream 0 means the
// calling thread's default stream.
DriverHandle streamOf(CUstream stream, bool per_thread) {
  return handle(stream == nullptr && per_thread ? CU_STREAM_PER_THREAD : stream);
}

template <class Params>
LaunchInfo classicLaunch(const Params &p, bool per_thread, bool cooperative) {
  LaunchInfo launch;
  launch.function = handle(p.f);
  launch.stream = streamOf(p.hStream, per_thread);
  launch.grid = {p.gridDimX, p.gridDimY, p.gridDimZ};
  launch.block = {p.blockDimX, p.blockDimY, p.blockDimZ};
  launch.dynamic_shared_bytes = p.sharedMemBytes;
  launch.cooperative = cooperative;
  return launch;
}

template <class Params>
LaunchInfo extendedLaunch(const Params &p, bool per_thread) {
  const CUlaunchConfig &c = *p.config;
  LaunchInfo launch;
  launch.function = handle(p.f);
  launch.stream = streamOf(c.hStream, per_thread);
  launch.grid = {c.gridDimX, c.gridDimY, c.gridDimZ};
  launch.block = {c.blockDimX, c.blockDimY, c.blockDimZ};
  launch.dynamic_shared_bytes = c.sharedMemBytes;
  for (unsigned i = 0; i < c.numAttrs; ++i)
    if (c.attrs[i].id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE && c.attrs[i].value.cooperative)
      launch.cooperative = true;
  return launch;
}

// The launch a driver-API callback describes; false for other callbacks.
bool decodeLaunch(CUpti_CallbackId id, const void *params, LaunchInfo &launch) {
  switch (id) {
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    launch = classicLaunch(*static_cast<const cuLaunchKernel_params *>(params), false, false);
    return true;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    launch = classicLaunch(*static_cast<const cuLaunchKernel_ptsz_params *>(params), true, false);
    return true;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    launch = classicLaunch(*static_cast<const cuLaunchCooperativeKernel_params *>(params),
                           false, true);
    return true;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
    launch = classicLaunch(
        *static_cast<const cuLaunchCooperativeKernel_ptsz_params *>(params), true, true);
    return true;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    launch = extendedLaunch(*static_cast<const cuLaunchKernelEx_params *>(params), false);
    return true;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
    launch = extendedLaunch(*static_cast<const cuLaunchKernelEx_ptsz_params *>(params), true);
    return true;
  default:
    return false;
  }
}

constexpr CUpti_CallbackId kLaunchCallbacks[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
};

constexpr CUpti_CallbackId kResourceCallbacks[] = {
    CUPTI_CBID_RESOURCE_MODULE_LOADED,
    CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING,
    CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
};

void onLaunch(LaunchChecker &checker, CUpti_CallbackId id,
              const CUpti_CallbackData &data) {
  if (data.callbackSite == CUPTI_API_EXIT) {
    auto result = static_cast<const CUresult *>(data.functionReturnValue);
    checker.afterLaunch(result && *result == CUDA_SUCCESS);
    return;
  }
  LaunchInfo launch;
  if (!decodeLaunch(id, data.functionParams, launch))
    return;
  launch.context = handle(data.context);
  launch.symbol = data.symbolName ? data.symbolName : "";
  checker.beforeLaunch(launch);
}

void onResource(LaunchChecker &checker, CUpti_CallbackId id,
                const CUpti_ResourceData &data) {
  switch (id) {
  case CUPTI_CBID_RESOURCE_MODULE_LOADED: {
    auto *module = static_cast<const CUpti_ModuleResourceData *>(data.resourceDescriptor);
    if (module)
      checker.moduleLoaded(module->pCubin, module->cubinSize);
    return;
  }
  case CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING:
    checker.moduleUnloading();
    return;
  case CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING:
    checker.contextDestroying(handle(data.context));
    return;
  default:
    return;
  }
}

void CUPTIAPI onCallback(void *user, CUpti_CallbackDomain domain,
                         CUpti_CallbackId id, const void *data) {
  auto *checker = static_cast<LaunchChecker *>(user);
  try {
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API)
      onLaunch(*checker, id, *static_cast<const CUpti_CallbackData *>(data));
    else if (domain == CUPTI_CB_DOMAIN_RESOURCE)
      onResource(*checker, id, *static_cast<const CUpti_ResourceData *>(data));
  } catch (...) {
    // The checker's own failures end as reports; this is memory running out
    // while decoding. The launch goes unchecked.
  }
}

std::string cuptiError(CUptiResult result, const char *call) {
  const char *text = nullptr;
  cuptiGetResultString(result, &text);
  return std::string(call) + ": " + (text ? text : "CUPTI error " + std::to_string(result));
}

// Subscribes `checker` to the callbacks; returns the problem, or "" (on a
// problem nothing stays subscribed).
std::string subscribe(LaunchChecker &checker) {
  CUpti_SubscriberHandle subscriber;
  if (CUptiResult r = cuptiSubscribe(&subscriber, onCallback, &checker); r != CUPTI_SUCCESS)
    return cuptiError(r, "cuptiSubscribe");
  auto enable = [&](CUpti_CallbackDomain domain, CUpti_CallbackId id) {
    CUptiResult r = cuptiEnableCallback(1, subscriber, domain, id);
    return r == CUPTI_SUCCESS ? std::string() : cuptiError(r, "cuptiEnableCallback");
  };
  std::string problem;
  for (CUpti_CallbackId id : kLaunchCallbacks)
    if (problem.empty())
      problem = enable(CUPTI_CB_DOMAIN_DRIVER_API, id);
  for (CUpti_CallbackId id : kResourceCallbacks)
    if (problem.empty())
      problem = enable(CUPTI_CB_DOMAIN_RESOURCE, id);
  if (!problem.empty())
    cuptiUnsubscribe(subscriber);
  return problem;
}

v1::RunMetadata runMetadata(const AgentOptions &options) {
  v1::RunMetadata metadata;
  metadata.set_project(options.project);
  metadata.set_commit(options.commit);
  metadata.set_branch(options.branch);
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0)
    metadata.set_host(host);
  if (const char *user = std::getenv("USER"))
    metadata.set_user(user);
  return metadata;
}

void addSinks(Agent &agent) {
  const AgentOptions &o = agent.options;
  if (!o.quiet)
    agent.sinks.addSink(std::make_unique<RaceLog>());
  if (!o.report_file.empty())
    agent.sinks.addSink(std::make_unique<ReportFile>(o.report_file));
  if (!o.server.empty()) {
    ClientOptions client;
    client.address = o.server;
    client.token = o.token;
    client.tls_ca = o.tls_ca;
    client.deadline = std::chrono::seconds(o.server_timeout_s);
    agent.sinks.addSink(std::make_unique<ServerReports>(client, runMetadata(o),
                                                        o.spool_dir, o.batch));
  }
}

void atExit() {
  Agent &agent = *g_agent;
  AgentSummary summary = agent.startup;
  if (agent.checker) {
    agent.sinks.finish();
    summary = agent.checker->summary();
    agent.sinks.count(summary);
  }
  if (!agent.options.summary_file.empty())
    writeAgentSummary(agent.options.summary_file, summary);
  else if (agent.checker && !agent.options.quiet)
    agentMessage(describe(summary));
}

// Returns the reason checking is off for the whole run, or "".
std::string start(Agent &agent) {
  std::string error;
  if (!parseAgentOptions(std::getenv, agent.options, error))
    return error;
  CheckerConfig config;
  config.program = program_invocation_name;
  config.filter = KernelFilter(agent.options.kernels);
  config.buffer_bytes = agent.options.buffer_bytes;
  if (!agent.options.plan.empty()) {
    auto plan = SitePlan::load(agent.options.plan, error);
    if (!plan)
      return error;
    plan->relativizeSourcePaths(agent.options.source_root);
    config.plan = std::move(*plan);
  }
  // Sinks first: the gRPC library they start must outlive atExit.
  addSinks(agent);
  agent.checker = std::make_unique<LaunchChecker>(agent.device, std::move(config), agent.sinks);
  if (std::string problem = subscribe(*agent.checker); !problem.empty()) {
    agent.checker.reset();
    return problem;
  }
  return "";
}

} // namespace

} // namespace gpurace::rt

// Called by the CUDA driver during cuInit. Returning 1 (success) whatever
// happened keeps the program running without checking when the agent could
// not start.
extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  using namespace gpurace::rt;
  try {
    g_agent = new Agent;
    if (std::string problem = start(*g_agent); !problem.empty()) {
      g_agent->startup.startup_error = problem;
      agentMessage("error: " + problem + "; race checking is off for this run");
    }
    std::atexit(atExit);
  } catch (...) {
    agentMessage("error: out of memory; race checking is off for this run");
  }
  return 1;
}
