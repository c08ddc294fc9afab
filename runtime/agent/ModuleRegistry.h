//===- ModuleRegistry.h - which kernels are instrumented --------*- C++ -*-===//
//
// An instrumented module defines `gpurace_record_buffer`; a kernel is
// instrumented when its module does. The registry looks that symbol up once
// per kernel and context and remembers the answer until a module is
// unloaded or a context destroyed (the driver may then reuse handles). It
// also counts the instrumented modules loaded, from their code, so that a
// run that checked nothing can say whether anything was instrumented.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_AGENT_MODULEREGISTRY_H
#define GPURACE_RUNTIME_AGENT_MODULEREGISTRY_H

#include "runtime/agent/DeviceApi.h"

#include <map>
#include <mutex>
#include <utility>

namespace gpurace::rt {

// Whether the code of a loaded module (a cubin) defines the record buffer.
bool cubinDefinesRecordBuffer(const void *cubin, size_t size);

class ModuleRegistry {
public:
  void moduleLoaded(const void *cubin, size_t size);
  void forgetAll();
  // The address of `function`'s record buffer pointer in `context`, or 0
  // when its module is not instrumented. Throws DeviceError the first time
  // a look-up fails; the kernel then counts as not instrumented. The driver
  // may call back into moduleLoaded or forgetAll during the look-up, on
  // the same thread.
  DevicePtr recordBuffer(DeviceApi &device, DriverHandle context,
                         DriverHandle function);
  uint64_t instrumentedModules() const;

private:
  mutable std::mutex mutex_;
  std::map<std::pair<DriverHandle, DriverHandle>, DevicePtr> symbols_;
  uint64_t instrumented_modules_ = 0;
};

} // namespace gpurace::rt

#endif
