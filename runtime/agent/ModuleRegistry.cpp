#include "runtime/agent/ModuleRegistry.h"

#include "runtime/device/RecordLayout.h"

#include <algorithm>
#include <cstring>

namespace gpurace::rt {

bool cubinDefinesRecordBuffer(const void *cubin, size_t size) {
  // The symbol's name is in the cubin's string table, NUL-terminated.
  const char *begin = static_cast<const char *>(cubin);
  const char *end = begin + size;
  const char *name = kRecordBufferSymbol;
  const char *name_end = name + std::strlen(name) + 1;
  return cubin && std::search(begin, end, name, name_end) != end;
}

void ModuleRegistry::moduleLoaded(const void *cubin, size_t size) {
  if (!cubinDefinesRecordBuffer(cubin, size))
    return;
  std::lock_guard<std::mutex> lock(mutex_);
  ++instrumented_modules_;
}

void ModuleRegistry::forgetAll() {
  std::lock_guard<std::mutex> lock(mutex_);
  symbols_.clear();
}

DevicePtr ModuleRegistry::recordBuffer(DeviceApi &device, DriverHandle context,
                                       DriverHandle function) {
  auto key = std::make_pair(context, function);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto known = symbols_.find(key); known != symbols_.end())
      return known->second;
  }
  // The look-up runs without the lock: the driver may load the module into
  // the context right now (lazy loading, the default) and report that on
  // this thread through the resource callback, which takes the lock.
  DevicePtr address = 0;
  try {
    address = device.findRecordBuffer(function);
  } catch (...) {
    // A failed look-up counts as "not instrumented" from then on: the first
    // launch reports the failure, later ones do not repeat it.
    std::lock_guard<std::mutex> lock(mutex_);
    symbols_.emplace(key, 0);
    throw;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  symbols_.insert_or_assign(key, address);
  return address;
}

uint64_t ModuleRegistry::instrumentedModules() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return instrumented_modules_;
}

} // namespace gpurace::rt
