#include "runtime/agent/DriverDevice.h"

#include "runtime/device/RecordLayout.h"

#include <cuda.h>

#include <string>

namespace gpurace::rt {

namespace {

// "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
void check(CUresult result, const char *call) {
  if (result == CUDA_SUCCESS)
    return;
  const char *name = nullptr, *text = nullptr;
  cuGetErrorName(result, &name);
  cuGetErrorString(result, &text);
  throw DeviceError(std::string(call) + ": " + (name ? name : "CUDA error " + std::to_string(result)) +
                    (text ? std::string(" (") + text + ")" : std::string()));
}

// The symbol's address, or 0 when the module or library lacks it.
DevicePtr checkedGlobal(CUresult result, CUdeviceptr address, size_t bytes,
                        const char *call) {
  if (result == CUDA_ERROR_NOT_FOUND)
    return 0;
  check(result, call);
  if (bytes != sizeof(RecordBufferHeader *))
    throw DeviceError(std::string(kRecordBufferSymbol) + " has " +
                      std::to_string(bytes) + " bytes, not a pointer's " +
                      std::to_string(sizeof(RecordBufferHeader *)));
  return address;
}

} // namespace

DevicePtr DriverDevice::findRecordBuffer(DriverHandle function) {
  CUdeviceptr address = 0;
  size_t bytes = 0;
  // Launches name a CUfunction of a module, or (context-independent
  // loading, the runtime's default since CUDA 12) a CUkernel of a library;
  // the driver tells them apart and rejects the wrong kind.
  CUmodule module = nullptr;
  CUresult as_function = cuFuncGetModule(&module, reinterpret_cast<CUfunction>(function));
  // Each look-up runs before its results are read: as arguments of one
  // call, they could be read first (in any order of evaluation).
  if (as_function == CUDA_SUCCESS) {
    CUresult found = cuModuleGetGlobal(&address, &bytes, module, kRecordBufferSymbol);
    return checkedGlobal(found, address, bytes, "cuModuleGetGlobal");
  }
  CUlibrary library = nullptr;
  if (cuKernelGetLibrary(&library, reinterpret_cast<CUkernel>(function)) == CUDA_SUCCESS) {
    CUresult found = cuLibraryGetGlobal(&address, &bytes, library, kRecordBufferSymbol);
    return checkedGlobal(found, address, bytes, "cuLibraryGetGlobal");
  }
  check(as_function, "cuFuncGetModule");
  return 0;
}

DevicePtr DriverDevice::allocate(size_t bytes) {
  CUdeviceptr ptr = 0;
  check(cuMemAlloc(&ptr, bytes), "cuMemAlloc");
  return ptr;
}

void DriverDevice::release(DevicePtr ptr) noexcept { cuMemFree(ptr); }

void DriverDevice::write(DevicePtr to, const void *from, size_t bytes) {
  check(cuMemcpyHtoD(to, from, bytes), "cuMemcpyHtoD");
}

void DriverDevice::read(void *to, DevicePtr from, size_t bytes) {
  check(cuMemcpyDtoH(to, from, bytes), "cuMemcpyDtoH");
}

void DriverDevice::synchronize(DriverHandle stream) {
  check(cuStreamSynchronize(reinterpret_cast<CUstream>(stream)), "cuStreamSynchronize");
}

bool DriverDevice::capturing(DriverHandle stream) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  check(cuStreamIsCapturing(reinterpret_cast<CUstream>(stream), &status),
        "cuStreamIsCapturing");
  return status != CU_STREAM_CAPTURE_STATUS_NONE;
}

v1::DeviceInfo DriverDevice::deviceInfo() {
  CUdevice device = 0;
  check(cuCtxGetDevice(&device), "cuCtxGetDevice");
  char name[256] = {};
  check(cuDeviceGetName(name, sizeof name - 1, device), "cuDeviceGetName");
  int major = 0, minor = 0, driver = 0;
  check(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device),
        "cuDeviceGetAttribute");
  check(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device),
        "cuDeviceGetAttribute");
  check(cuDriverGetVersion(&driver), "cuDriverGetVersion");
  v1::DeviceInfo info;
  info.set_name(name);
  info.set_sm_architecture("sm_" + std::to_string(major) + std::to_string(minor));
  // 13000 is CUDA 13.0: the newest CUDA version the driver supports.
  info.set_driver_version(std::to_string(driver / 1000) + "." +
                          std::to_string(driver % 1000 / 10));
  return info;
}

} // namespace gpurace::rt
