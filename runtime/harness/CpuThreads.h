//===- CpuThreads.h - blocks and warps of host threads ----------*- C++ -*-===//
//
// The rendezvous the CPU harness builds CUDA's execution hierarchy from: a
// barrier for a block (or a cooperative grid) whose members may leave, and a
// warp whose lanes meet for __syncwarp and exchange values for shuffles.
// Part of CpuCuda.h; include that instead.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_HARNESS_CPUTHREADS_H
#define GPURACE_RUNTIME_HARNESS_CPUTHREADS_H

#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

namespace gpurace_cpu {

// A reusable barrier whose members may leave (a thread that returns from the
// kernel no longer holds the others back, as on the GPU).
class Barrier {
public:
  void reset(uint64_t members) {
    members_ = members;
    arrived_ = 0;
  }
  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    uint64_t generation = generation_;
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
  uint64_t members_ = 0, arrived_ = 0, generation_ = 0;
};

// The lanes of one warp. The first lane to arrive fixes who is awaited
// (its mask, less the lanes that have exited), so one mask at a time.
class Warp {
public:
  explicit Warp(uint32_t live) : live_(live) {}

  uint32_t live() {
    std::lock_guard<std::mutex> lock(mutex_);
    return live_;
  }

  void wait(unsigned lane, uint32_t mask) {
    std::unique_lock<std::mutex> lock(mutex_);
    arrive(lock, lane, mask);
  }

  void exit(unsigned lane) {
    std::lock_guard<std::mutex> lock(mutex_);
    live_ &= ~(1u << lane);
    awaited_ &= live_;
    if (arrived_ != 0 && (awaited_ & ~arrived_) == 0)
      release();
  }

  // Publishes `bits`, waits for the lanes of `mask`, and returns what lane
  // `source` published (the caller's own bits if it did not take part).
  uint64_t exchange(unsigned lane, uint32_t mask, uint64_t bits, unsigned source) {
    std::unique_lock<std::mutex> lock(mutex_);
    slots_[lane] = bits;
    arrive(lock, lane, mask);
    uint64_t out = source < 32 && ((mask & (1u << source)) != 0) ? slots_[source] : bits;
    arrive(lock, lane, mask); // nobody overwrites a slot before all have read
    return out;
  }

  uint32_t ballot(unsigned lane, uint32_t mask, bool predicate) {
    std::unique_lock<std::mutex> lock(mutex_);
    slots_[lane] = predicate;
    arrive(lock, lane, mask);
    uint32_t votes = 0;
    for (unsigned l = 0; l < 32; ++l)
      if ((mask & live_ & (1u << l)) && slots_[l])
        votes |= 1u << l;
    arrive(lock, lane, mask);
    return votes;
  }

private:
  void arrive(std::unique_lock<std::mutex> &lock, unsigned lane, uint32_t mask) {
    uint64_t generation = generation_;
    if (arrived_ == 0)
      awaited_ = (mask & live_) | (1u << lane);
    arrived_ |= 1u << lane;
    if ((awaited_ & ~arrived_) == 0)
      release();
    else
      cv_.wait(lock, [&] { return generation != generation_; });
  }
  void release() {
    arrived_ = 0;
    awaited_ = 0;
    ++generation_;
    cv_.notify_all();
  }

  std::mutex mutex_;
  std::condition_variable cv_;
  uint32_t live_, arrived_ = 0, awaited_ = 0;
  uint64_t generation_ = 0;
  uint64_t slots_[32] = {};
};

struct Block {
  Barrier barrier;
  std::vector<std::unique_ptr<Warp>> warps;
  explicit Block(unsigned threads) {
    barrier.reset(threads);
    for (unsigned first = 0; first < threads; first += 32) {
      unsigned n = threads - first;
      warps.push_back(std::make_unique<Warp>(n >= 32 ? 0xffffffffu : (1u << n) - 1));
    }
  }
};

inline thread_local dim3 thread_idx;
inline thread_local dim3 block_idx;
inline thread_local Block *current_block = nullptr;
inline dim3 block_dim;
inline dim3 grid_dim;

inline unsigned linearThread() {
  return thread_idx.x + thread_idx.y * block_dim.x +
         thread_idx.z * block_dim.x * block_dim.y;
}
inline unsigned laneId() { return linearThread() % 32; }
inline Warp &currentWarp() { return *current_block->warps[linearThread() / 32]; }

template <class T> T shuffle(uint32_t mask, T value, int source) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                "the harness shuffles values of up to 8 bytes");
  unsigned lane = laneId();
  if (mask == (1u << lane))
    return value; // the device runtime's own warp-of-one shuffles
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  bits = currentWarp().exchange(lane, mask, bits, unsigned(source));
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

} // namespace gpurace_cpu

#endif
