//===- JobSlots.h - how many analysis threads may run at once ---*- C++ -*-===//
//
// `--jobs` bounds the threads of one analysis. Each file worker holds a
// slot; the kernels of a file are checked on the slots no file worker
// holds, so one file with many kernels uses the cores that fewer files
// than jobs leave idle, and many files never oversubscribe them.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_JOBSLOTS_H
#define GPURACE_ANALYZER_JOBSLOTS_H

#include <atomic>

namespace gpurace::analyzer {

class JobSlots {
public:
  explicit JobSlots(unsigned free) : free_(free) {}

  // Takes a free slot, if there is one; never waits.
  bool tryTake() {
    unsigned now = free_.load();
    while (now > 0)
      if (free_.compare_exchange_weak(now, now - 1))
        return true;
    return false;
  }
  void give() { ++free_; }

private:
  std::atomic<unsigned> free_;
};

} // namespace gpurace::analyzer

#endif
