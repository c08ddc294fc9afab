//===- RecordLayout.h - the trace records a launch writes -------*- C++ -*-===//
//
// The one layout shared by the device runtime (which writes records into a
// per-launch buffer in device memory), the CPU harness and the host detector
// (which reads them back). It is plain C++ with fixed-width fields so that
// nvcc, the host compiler and the detector agree on every byte; the
// static_asserts below pin the layout.
//
// A record describes one warp-level event, BARRACUDA-style: the lanes of one
// warp that executed one instrumented access or sync operation together, with
// one address (and, for plain stores, one stored value) per lane.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_DEVICE_RECORDLAYOUT_H
#define GPURACE_RUNTIME_DEVICE_RECORDLAYOUT_H

#include <stddef.h>
#include <stdint.h>

namespace gpurace {
namespace rt {

constexpr uint32_t kWarpSize = 32;

// What a record describes.
enum RecordOp : uint8_t {
  kOpRead = 1,
  kOpWrite = 2,
  kOpAtomic = 3,
  // __syncthreads(): every live warp of the block writes one.
  kOpBarrier = 4,
  // __syncwarp(aux): `aux` holds the member mask.
  kOpSyncWarp = 5,
  // __threadfence*(): `scope` says which.
  kOpFence = 6,
  // grid.sync() of a cooperative launch: every live warp writes one.
  kOpGridSync = 7,
};

// Numbered like gpurace.v1.MemoryScope so the two convert by value.
enum RecordScope : uint8_t {
  kScopeNone = 0,
  kScopeWarp = 1,
  kScopeBlock = 2,
  kScopeDevice = 3,
  kScopeSystem = 4,
};

// Bits of WarpRecord::flags.
enum RecordFlag : uint8_t {
  // Addresses are offsets in the block's shared memory window, not global
  // addresses: the same offset in two blocks is two locations.
  kFlagShared = 1u << 0,
  // `value` holds what each lane stored (plain stores only); the detector's
  // same-value filter applies.
  kFlagValues = 1u << 1,
};

struct WarpRecord {
  // Index of the site in the instrumentation plan: access sites first, in
  // plan order, then sync sites.
  uint32_t site;
  // Linear block index: x + y * gridDim.x + z * gridDim.x * gridDim.y.
  uint32_t block;
  // Lanes that executed this event together.
  uint32_t active_mask;
  // Op-specific: the member mask of a __syncwarp.
  uint32_t aux;
  // Warp within the block (linear thread index / 32).
  uint16_t warp;
  uint8_t op;    // RecordOp
  uint8_t scope; // RecordScope of an atomic or fence
  uint8_t size;  // bytes per lane of an access
  uint8_t flags; // RecordFlag bits
  uint16_t reserved;
  uint64_t address[kWarpSize];
  uint64_t value[kWarpSize];
};

static_assert(offsetof(WarpRecord, warp) == 16, "header words first");
static_assert(offsetof(WarpRecord, address) == 24, "24-byte header");
static_assert(sizeof(WarpRecord) == 24 + 2 * 8 * kWarpSize,
              "WarpRecord is 536 bytes with no padding");

// The head of a per-launch buffer; `capacity` records follow it.
struct RecordBufferHeader {
  // Number of WarpRecord slots after the header.
  uint64_t capacity;
  // Slots handed out so far; may run past `capacity`.
  unsigned long long next;
  // Records that found the buffer full: counted, never silently dropped.
  unsigned long long lost;
  // kBufferMagic, so the reader can tell a buffer from stray memory.
  uint64_t magic;
};

constexpr uint64_t kBufferMagic = 0x31766372616a7067ull; // "gpjarcv1"

// The unmangled name of the buffer pointer each instrumented module defines
// (DeviceRuntime.cuh); the agent finds a module's buffer by it.
constexpr const char *kRecordBufferSymbol = "gpurace_record_buffer";

static_assert(sizeof(RecordBufferHeader) == 32, "32-byte buffer header");
static_assert(sizeof(RecordBufferHeader) % alignof(WarpRecord) == 0,
              "records start aligned right after the header");

inline size_t recordBufferBytes(uint64_t capacity) {
  return sizeof(RecordBufferHeader) + capacity * sizeof(WarpRecord);
}

} // namespace rt
} // namespace gpurace

#endif
