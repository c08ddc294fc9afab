//===- LaunchBuffers.h - the record buffers launches write to ---*- C++ -*-===//
//
// One device buffer per context, allocated at the first checked launch and
// reused: checked launches run one at a time, and each starts from a reset
// header (capacity and magic set, nothing written, nothing lost). A buffer
// lives as long as its context; the driver frees it with the context.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_AGENT_LAUNCHBUFFERS_H
#define GPURACE_RUNTIME_AGENT_LAUNCHBUFFERS_H

#include "runtime/agent/DeviceApi.h"
#include "runtime/device/RecordLayout.h"

#include <map>

namespace gpurace::rt {

class LaunchBuffers {
public:
  // `bytes` of device memory per buffer, header included.
  explicit LaunchBuffers(uint64_t bytes);

  uint64_t capacity() const { return capacity_; }
  // The buffer of `context`, allocated on first use and reset for a new
  // launch. Throws DeviceError.
  DevicePtr acquire(DeviceApi &device, DriverHandle context);
  // The context is going away, and its memory with it.
  void forget(DriverHandle context);

private:
  uint64_t capacity_;
  std::map<DriverHandle, DevicePtr> buffers_;
};

} // namespace gpurace::rt

#endif
