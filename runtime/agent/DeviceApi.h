//===- DeviceApi.h - what the agent asks of the GPU -------------*- C++ -*-===//
//
// The few driver operations the launch checker needs, behind an interface:
// the CUDA driver implements it in the agent (DriverDevice), and tests run
// the checker's whole launch path on host memory without a GPU. Handles
// (functions, streams, contexts) are the driver's, passed through as
// integers. Every operation throws DeviceError on failure; the checker turns
// that into an unchecked launch, never into a crash.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_AGENT_DEVICEAPI_H
#define GPURACE_RUNTIME_AGENT_DEVICEAPI_H

#include "gpurace/v1/runtime.pb.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace gpurace::rt {

using DevicePtr = uint64_t;
using DriverHandle = uintptr_t;

class DeviceError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class DeviceApi {
public:
  virtual ~DeviceApi() = default;

  // The device address of `gpurace_record_buffer` in the module of the
  // kernel `function` (a CUfunction or CUkernel); 0 when its module does not
  // define it, i.e. was not instrumented.
  virtual DevicePtr findRecordBuffer(DriverHandle function) = 0;
  virtual DevicePtr allocate(size_t bytes) = 0;
  virtual void release(DevicePtr ptr) noexcept = 0;
  virtual void write(DevicePtr to, const void *from, size_t bytes) = 0;
  virtual void read(void *to, DevicePtr from, size_t bytes) = 0;
  // Waits until every launch on `stream` so far has completed.
  virtual void synchronize(DriverHandle stream) = 0;
  // Whether launches on `stream` are being captured into a graph (and so do
  // not run now).
  virtual bool capturing(DriverHandle stream) = 0;
  // Name, SM architecture and driver version of the current context's
  // device.
  virtual v1::DeviceInfo deviceInfo() = 0;
};

} // namespace gpurace::rt

#endif
