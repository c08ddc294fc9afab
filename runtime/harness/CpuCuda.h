//===- CpuCuda.h - instrumented device code on host threads -----*- C++ -*-===//
//
// Lets the output of `gpurace instrument` compile as host C++ (force-include
// this header, or the harness's cuda_runtime.h) and run launches without a
// GPU: every CUDA thread is a host thread, the threads of a block run
// concurrently, and __syncthreads, __syncwarp, warp shuffles and grid syncs
// are real rendezvous. Blocks run one after the other, except in a
// cooperative launch, where grid.sync() needs the whole grid at once. The
// trace the device runtime writes is therefore in an order the GPU could
// have produced, which is all the detector needs: nothing orders two blocks
// of a launch except the synchronization the records show.
//
// Each host thread is a warp of one as far as records go (__activemask()
// names only the calling lane), so every record carries one lane.
//
// __shared__ variables, and the dynamic shared memory of `extern __shared__`
// arrays, live in their own section so the runtime can tell shared addresses
// from global ones; blocks that run one after the other reuse them, as a
// GPU reuses a multiprocessor's shared memory.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_HARNESS_CPUCUDA_H
#define GPURACE_RUNTIME_HARNESS_CPUCUDA_H

#include "runtime/device/RecordLayout.h"

#include <math.h>

#include <atomic>
#include <cstring>
#include <functional>
#include <type_traits>

#define GPURACE_CPU_HARNESS 1
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __noinline__
#define __launch_bounds__(...)
#define __restrict__ __restrict
#define __forceinline__ inline
#define __shared__ static __attribute__((section("gpurace_shared")))

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1)
      : x(vx), y(vy), z(vz) {}
};
using uint3 = dim3;

// Set by the device runtime header of an instrumented file; absent (null)
// in a program that was not instrumented.
extern "C" gpurace::rt::RecordBufferHeader *gpurace_record_buffer
    __attribute__((weak));

#include "runtime/harness/CpuThreads.h"
#include "runtime/harness/CpuLaunch.h"

#define threadIdx (gpurace_cpu::thread_idx)
#define blockIdx (gpurace_cpu::block_idx)
#define blockDim (gpurace_cpu::block_dim)
#define gridDim (gpurace_cpu::grid_dim)
constexpr int warpSize = 32;

inline void __syncthreads() { gpurace_cpu::current_block->barrier.wait(); }

// Lanes of `mask` wait for each other; one mask at a time per warp.
inline void __syncwarp(unsigned mask = 0xffffffffu) {
  gpurace_cpu::currentWarp().wait(gpurace_cpu::laneId(), mask);
}

inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }

// Each host thread is a warp of one for the device runtime's records.
inline unsigned __activemask() { return 1u << gpurace_cpu::laneId(); }
inline int __ffs(unsigned x) { return __builtin_ffs(int(x)); }
inline int __popc(unsigned x) { return __builtin_popcount(x); }

// Shuffles exchange values between the lanes of `mask` (in segments of
// `width` lanes); a source lane outside the segment yields the caller's own
// value, as on the GPU.
template <class T> T __shfl_sync(unsigned mask, T v, int src, int width = 32) {
  int lane = int(gpurace_cpu::laneId()), base = lane & ~(width - 1);
  return gpurace_cpu::shuffle(mask, v, base + (src % width));
}
template <class T> T __shfl_down_sync(unsigned mask, T v, unsigned d, int width = 32) {
  int lane = int(gpurace_cpu::laneId()), base = lane & ~(width - 1);
  int src = lane + int(d);
  return gpurace_cpu::shuffle(mask, v, src < base + width ? src : lane);
}
template <class T> T __shfl_up_sync(unsigned mask, T v, unsigned d, int width = 32) {
  int lane = int(gpurace_cpu::laneId()), base = lane & ~(width - 1);
  int src = lane - int(d);
  return gpurace_cpu::shuffle(mask, v, src >= base ? src : lane);
}
template <class T> T __shfl_xor_sync(unsigned mask, T v, int m, int width = 32) {
  int lane = int(gpurace_cpu::laneId()), base = lane & ~(width - 1);
  int src = lane ^ m;
  return gpurace_cpu::shuffle(mask, v, src >= base && src < base + width ? src : lane);
}
inline unsigned __ballot_sync(unsigned mask, int predicate) {
  return gpurace_cpu::currentWarp().ballot(gpurace_cpu::laneId(), mask, predicate != 0);
}
inline int __any_sync(unsigned mask, int predicate) { return __ballot_sync(mask, predicate) != 0; }
inline int __all_sync(unsigned mask, int predicate) {
  unsigned live = mask & gpurace_cpu::currentWarp().live();
  return (__ballot_sync(mask, predicate) & live) == live;
}

extern "C" char __start_gpurace_shared[] __attribute__((weak));
extern "C" char __stop_gpurace_shared[] __attribute__((weak));
inline bool __isShared(const void *p) {
  const char *c = static_cast<const char *>(p);
  return __start_gpurace_shared && c >= __start_gpurace_shared && c < __stop_gpurace_shared;
}
inline size_t __cvta_generic_to_shared(const void *p) {
  return size_t(static_cast<const char *>(p) - __start_gpurace_shared);
}

template <class T> T __ldg(const T *p) { return *p; }
template <class A, class B> auto min(A a, B b) { return b < a ? b : a; }
template <class A, class B> auto max(A a, B b) { return a < b ? b : a; }

namespace gpurace_cpu {

// Read-modify-write of any 1, 2, 4 or 8-byte type (floats included).
template <class T, class F> T atomicUpdate(T *p, F next) {
  T old = *p;
  T desired = next(old);
  while (!__atomic_compare_exchange(p, &old, &desired, false, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST))
    desired = next(old);
  return old;
}

} // namespace gpurace_cpu

// Every scope behaves alike on the host; the records keep the scope the
// source names, which is what the detector judges.
#define GPURACE_ATOMIC(name, expr)                                             \
  template <class T, class V> T name(T *p, V v) {                              \
    return gpurace_cpu::atomicUpdate(p, [&](T old) { return T(expr); });     \
  }                                                                            \
  template <class T, class V> T name##_block(T *p, V v) { return name(p, v); } \
  template <class T, class V> T name##_system(T *p, V v) { return name(p, v); }
GPURACE_ATOMIC(atomicAdd, old + v)
GPURACE_ATOMIC(atomicSub, old - v)
GPURACE_ATOMIC(atomicExch, v)
GPURACE_ATOMIC(atomicAnd, old & v)
GPURACE_ATOMIC(atomicOr, old | v)
GPURACE_ATOMIC(atomicXor, old ^ v)
GPURACE_ATOMIC(atomicMin, v < old ? v : old)
GPURACE_ATOMIC(atomicMax, old < v ? v : old)
GPURACE_ATOMIC(atomicInc, old >= T(v) ? 0 : old + 1)
GPURACE_ATOMIC(atomicDec, (old == 0 || old > T(v)) ? T(v) : old - 1)
#undef GPURACE_ATOMIC
template <class T, class V> T atomicCAS(T *p, V expected, V desired) {
  T e = T(expected), d = T(desired);
  __atomic_compare_exchange(p, &e, &d, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return e;
}
template <class T, class V> T atomicCAS_block(T *p, V e, V d) { return atomicCAS(p, e, d); }
template <class T, class V> T atomicCAS_system(T *p, V e, V d) { return atomicCAS(p, e, d); }

#endif
