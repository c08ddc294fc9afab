//===- DeviceRuntime.cuh - what instrumented kernels call -------*- CUDA -*-===//
//
// Included by every file `gpurace instrument` rewrote. Each planned access
// `p[i]` became `(*__gpurace_rec_w(&(p[i]), SITE))` (or _r, _rw, _a): the
// function appends one warp-aggregated record to the launch's buffer and
// returns the pointer unchanged, so reads, writes and compound assignments
// keep their meaning. Sync operations of watched kernels record themselves
// before they run.
//
// The buffer is `gpurace_record_buffer`, one per module, which the agent
// points at a per-launch allocation before each launch (null: recording is
// off and every hook is a load and a branch). When the buffer is full the
// record is counted in `lost`, never dropped silently.
//
// The same header compiles for the CPU harness, which supplies __activemask,
// __shfl_sync, atomicAdd and __isShared for host threads.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_DEVICE_DEVICERUNTIME_CUH
#define GPURACE_RUNTIME_DEVICE_DEVICERUNTIME_CUH

#include "RecordLayout.h"

#include <type_traits>

// Defined here, once per translation unit: without relocatable device code
// each translation unit is its own module with its own buffer pointer, which
// the agent finds by this unmangled name.
extern "C" {
__device__ gpurace::rt::RecordBufferHeader *gpurace_record_buffer = nullptr;
}

namespace gpurace {
namespace rt {

__device__ __forceinline__ uint32_t linearBlock() {
  return blockIdx.x + blockIdx.y * gridDim.x +
         blockIdx.z * gridDim.x * gridDim.y;
}

__device__ __forceinline__ uint32_t linearThread() {
  return threadIdx.x + threadIdx.y * blockDim.x +
         threadIdx.z * blockDim.x * blockDim.y;
}

// Shared-memory addresses are recorded as offsets in the block's window so
// the detector can tell two blocks' shared memory apart.
__device__ __forceinline__ uint64_t recordedAddress(const void *p,
                                                    bool &shared) {
  shared = __isShared(p);
  return shared ? uint64_t(__cvta_generic_to_shared(p)) : uint64_t(p);
}

// One record for the lanes that execute this call together: the first
// active lane reserves the slot, every lane fills in its own address. `p`
// may point to volatile data: only its address is recorded.
__device__ __forceinline__ void record(uint32_t site, uint8_t op, uint8_t scope,
                                       uint8_t size, const volatile void *p,
                                       uint64_t value, uint8_t flags,
                                       uint32_t aux) {
  RecordBufferHeader *buffer = gpurace_record_buffer;
  if (buffer == nullptr)
    return;
  unsigned mask = __activemask();
  unsigned lane = linearThread() % kWarpSize;
  unsigned leader = __ffs(mask) - 1;
  unsigned long long slot = 0;
  if (lane == leader)
    slot = atomicAdd(&buffer->next, 1ull);
  slot = __shfl_sync(mask, slot, leader);
  if (slot >= buffer->capacity) {
    if (lane == leader)
      atomicAdd(&buffer->lost, 1ull);
    return;
  }
  WarpRecord *r = reinterpret_cast<WarpRecord *>(buffer + 1) + slot;
  bool shared = false;
  r->address[lane] = p ? recordedAddress(const_cast<const void *>(p), shared) : 0;
  r->value[lane] = value;
  if (lane != leader)
    return;
  r->site = site;
  r->block = linearBlock();
  r->active_mask = mask;
  r->aux = aux;
  r->warp = uint16_t(linearThread() / kWarpSize);
  r->op = op;
  r->scope = scope;
  r->size = size;
  r->flags = uint8_t(flags | (shared ? kFlagShared : 0));
  r->reserved = 0;
}

template <class T> __device__ __forceinline__ uint64_t valueBits(const T &v) {
  uint64_t bits = 0;
  memcpy(&bits, &v, sizeof(T) < 8 ? sizeof(T) : 8);
  return bits;
}

} // namespace rt
} // namespace gpurace

template <class T>
__device__ __forceinline__ T *__gpurace_rec_r(T *p, uint32_t site) {
  gpurace::rt::record(site, gpurace::rt::kOpRead, 0, sizeof(T), p, 0, 0, 0);
  return p;
}

template <class T>
__device__ __forceinline__ T *__gpurace_rec_w(T *p, uint32_t site) {
  gpurace::rt::record(site, gpurace::rt::kOpWrite, 0, sizeof(T), p, 0, 0, 0);
  return p;
}

// A compound assignment reads and writes; the write covers both conflicts.
template <class T>
__device__ __forceinline__ T *__gpurace_rec_rw(T *p, uint32_t site) {
  return __gpurace_rec_w(p, site);
}

template <class T>
__device__ __forceinline__ T *__gpurace_rec_a(T *p, uint32_t site,
                                              uint8_t scope) {
  gpurace::rt::record(site, gpurace::rt::kOpAtomic, scope, sizeof(T), p, 0, 0,
                      0);
  return p;
}

// A plain `p[i] = v`: records the value too, for the same-value filter. A
// volatile target is still stored once, through `p`. The value is taken by
// value: a constexpr host variable (`p[i] = kLimit`) may be read in device
// code, but nvcc rejects binding a reference to it.
template <class T, class V>
__device__ __forceinline__ T &__gpurace_store(T *p, V v, uint32_t site) {
  typename std::remove_volatile<T>::type stored = static_cast<T>(v);
  gpurace::rt::record(site, gpurace::rt::kOpWrite, 0, sizeof(T), p,
                      gpurace::rt::valueBits(stored), gpurace::rt::kFlagValues,
                      0);
  *p = stored;
  return *p;
}

// Barriers, fences and grid syncs: `(__gpurace_sync(SITE, OP, SCOPE), call)`.
__device__ __forceinline__ void __gpurace_sync(uint32_t site, uint8_t op,
                                               uint8_t scope) {
  gpurace::rt::record(site, op, scope, 0, nullptr, 0, 0, 0);
}

__device__ __forceinline__ void __gpurace_syncwarp(uint32_t site,
                                                   unsigned mask = 0xffffffffu) {
  gpurace::rt::record(site, gpurace::rt::kOpSyncWarp, 0, 0, nullptr, 0, 0,
                      mask);
  __syncwarp(mask);
}

#endif
