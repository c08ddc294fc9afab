#include "runtime/agent/LaunchBuffers.h"

namespace gpurace::rt {

LaunchBuffers::LaunchBuffers(uint64_t bytes)
    : capacity_((bytes - sizeof(RecordBufferHeader)) / sizeof(WarpRecord)) {}

DevicePtr LaunchBuffers::acquire(DeviceApi &device, DriverHandle context) {
  auto [at, added] = buffers_.emplace(context, 0);
  if (added) {
    try {
      at->second = device.allocate(recordBufferBytes(capacity_));
    } catch (...) {
      buffers_.erase(at);
      throw;
    }
  }
  RecordBufferHeader header{};
  header.capacity = capacity_;
  header.magic = kBufferMagic;
  device.write(at->second, &header, sizeof header);
  return at->second;
}

void LaunchBuffers::forget(DriverHandle context) { buffers_.erase(context); }

} // namespace gpurace::rt
