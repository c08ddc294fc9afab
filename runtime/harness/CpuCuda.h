//===- CpuCuda.h - instrumented device code on host threads -----*- C++ -*-===//
//
// Lets the output of `gpurace instrument` compile as host C++ (force-include
// this header) and run tiny launches without a GPU: blocks run one after the
// other, the threads of a block run concurrently on host threads, and
// __syncthreads / __syncwarp are real barriers. The trace the device runtime
// writes is therefore in an order the GPU could have produced, which is all
// the detector needs.
//
// __shared__ variables live in their own section so the runtime can tell
// shared addresses from global ones. Dynamic shared memory is not supported.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_HARNESS_CPUCUDA_H
#define GPURACE_RUNTIME_HARNESS_CPUCUDA_H

#include "runtime/device/RecordLayout.h"

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#define GPURACE_CPU_HARNESS 1
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static __attribute__((section("gpurace_shared")))

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
};

namespace gpurace_cpu {

inline thread_local dim3 thread_idx;
inline thread_local dim3 block_idx;
inline dim3 block_dim;
inline dim3 grid_dim;

// A reusable barrier whose members may leave (a thread that returns from the
// kernel no longer holds the others back, as on the GPU).
class Barrier {
public:
  void reset(unsigned members) {
    members_ = members;
    arrived_ = 0;
  }
  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    unsigned generation = generation_;
    if (++arrived_ >= members_)
      release();
    else
      cv_.wait(lock, [&] { return generation != generation_; });
  }
  void leave() {
    std::lock_guard<std::mutex> lock(mutex_);
    --members_;
    if (arrived_ > 0 && arrived_ >= members_)
      release();
  }

private:
  void release() {
    arrived_ = 0;
    ++generation_;
    cv_.notify_all();
  }
  std::mutex mutex_;
  std::condition_variable cv_;
  unsigned members_ = 0, arrived_ = 0, generation_ = 0;
};

inline Barrier block_barrier;
inline std::vector<std::unique_ptr<Barrier>> warp_barriers;

inline unsigned linearThread() {
  return thread_idx.x + thread_idx.y * block_dim.x +
         thread_idx.z * block_dim.x * block_dim.y;
}

// Runs `kernel(args...)` over the grid; returns when every block finished.
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), dim3 grid, dim3 block, Args... args) {
  grid_dim = grid;
  block_dim = block;
  unsigned threads = block.x * block.y * block.z;
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx) {
        block_barrier.reset(threads);
        warp_barriers.clear();
        for (unsigned w = 0; w < (threads + 31) / 32; ++w)
          warp_barriers.push_back(std::make_unique<Barrier>());
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < threads; ++t)
          pool.emplace_back([=] {
            thread_idx = dim3(t % block.x, (t / block.x) % block.y,
                              t / (block.x * block.y));
            block_idx = dim3(bx, by, bz);
            kernel(args...);
            block_barrier.leave();
          });
        for (std::thread &t : pool)
          t.join();
      }
}

} // namespace gpurace_cpu

#define threadIdx (gpurace_cpu::thread_idx)
#define blockIdx (gpurace_cpu::block_idx)
#define blockDim (gpurace_cpu::block_dim)
#define gridDim (gpurace_cpu::grid_dim)

inline void __syncthreads() { gpurace_cpu::block_barrier.wait(); }

// Lanes of `mask` wait for each other; the harness supports one mask at a
// time per warp.
inline void __syncwarp(unsigned mask = 0xffffffffu) {
  unsigned warp = gpurace_cpu::linearThread() / 32;
  gpurace_cpu::Barrier &b = *gpurace_cpu::warp_barriers[warp];
  static std::mutex setup;
  {
    std::lock_guard<std::mutex> lock(setup);
    unsigned threads = gpurace_cpu::block_dim.x * gpurace_cpu::block_dim.y *
                       gpurace_cpu::block_dim.z;
    unsigned live = threads - warp * 32 >= 32 ? 0xffffffffu
                                              : (1u << (threads - warp * 32)) - 1;
    b.reset(__builtin_popcount(mask & live));
  }
  b.wait();
}

inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }

// Each host thread runs alone: its warp-level operations involve only itself.
inline unsigned __activemask() { return 1u << (gpurace_cpu::linearThread() % 32); }
template <class T> T __shfl_sync(unsigned, T value, int) { return value; }
inline int __ffs(unsigned x) { return __builtin_ffs(int(x)); }

extern "C" char __start_gpurace_shared[] __attribute__((weak));
extern "C" char __stop_gpurace_shared[] __attribute__((weak));
inline bool __isShared(const void *p) {
  const char *c = static_cast<const char *>(p);
  return __start_gpurace_shared && c >= __start_gpurace_shared && c < __stop_gpurace_shared;
}
inline size_t __cvta_generic_to_shared(const void *p) {
  return size_t(static_cast<const char *>(p) - __start_gpurace_shared);
}

#define GPURACE_ATOMIC(name, body)                                             \
  template <class T> T name(T *p, T v) { return body; }                        \
  template <class T> T name##_block(T *p, T v) { return body; }                \
  template <class T> T name##_system(T *p, T v) { return body; }
GPURACE_ATOMIC(atomicAdd, __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST))
GPURACE_ATOMIC(atomicSub, __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST))
GPURACE_ATOMIC(atomicExch, __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST))
GPURACE_ATOMIC(atomicAnd, __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST))
GPURACE_ATOMIC(atomicOr, __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST))
#undef GPURACE_ATOMIC
template <class T> T atomicCAS(T *p, T expected, T desired) {
  __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_SEQ_CST,
                              __ATOMIC_SEQ_CST);
  return expected;
}
template <class T> T atomicCAS_block(T *p, T e, T d) { return atomicCAS(p, e, d); }
template <class T> T atomicCAS_system(T *p, T e, T d) { return atomicCAS(p, e, d); }

namespace gpurace_cpu {

// A record buffer for one launch, and the trace file the test reads back:
// grid and block dims, then the buffer header and its records.
struct TraceBuffer {
  std::vector<unsigned char> bytes;
  explicit TraceBuffer(uint64_t capacity)
      : bytes(gpurace::rt::recordBufferBytes(capacity)) {
    auto *h = header();
    h->capacity = capacity;
    h->magic = gpurace::rt::kBufferMagic;
  }
  gpurace::rt::RecordBufferHeader *header() {
    return reinterpret_cast<gpurace::rt::RecordBufferHeader *>(bytes.data());
  }
  bool write(const char *path, dim3 grid, dim3 block) {
    std::FILE *f = std::fopen(path, "wb");
    if (!f)
      return false;
    unsigned dims[6] = {grid.x, grid.y, grid.z, block.x, block.y, block.z};
    uint64_t used = header()->next < header()->capacity ? header()->next
                                                        : header()->capacity;
    bool ok = std::fwrite(dims, sizeof dims, 1, f) == 1 &&
              std::fwrite(bytes.data(), gpurace::rt::recordBufferBytes(used), 1, f) == 1;
    return std::fclose(f) == 0 && ok;
  }
};

} // namespace gpurace_cpu

#endif
