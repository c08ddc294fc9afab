//===- DriverDevice.h - DeviceApi on the CUDA driver ------------*- C++ -*-===//
#ifndef GPURACE_RUNTIME_AGENT_DRIVERDEVICE_H
#define GPURACE_RUNTIME_AGENT_DRIVERDEVICE_H

#include "runtime/agent/DeviceApi.h"

namespace gpurace::rt {

// Each call acts in the calling thread's current context, which is the
// launch's own inside a launch callback.
class DriverDevice : public DeviceApi {
public:
  DevicePtr findRecordBuffer(DriverHandle function) override;
  DevicePtr allocate(size_t bytes) override;
  void release(DevicePtr ptr) noexcept override;
  void write(DevicePtr to, const void *from, size_t bytes) override;
  void read(void *to, DevicePtr from, size_t bytes) override;
  void synchronize(DriverHandle stream) override;
  bool capturing(DriverHandle stream) override;
  v1::DeviceInfo deviceInfo() override;
};

} // namespace gpurace::rt

#endif
