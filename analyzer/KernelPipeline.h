//===- KernelPipeline.h - check kernels as they are prepared ----*- C++ -*-===//
//
// The kernels of one unit are prepared in turn on the calling thread (the
// model and launch contexts read the Clang parse, which is not shared
// across threads) and checked as soon as they are ready: on the slots
// `--jobs` leaves free, or on the calling thread when none is. A checked
// kernel keeps only its results; its Z3 context goes at once, so that a
// unit of hundreds of template instances never holds all their solvers
// (creating each into fresh pages and freeing them all at the end cost
// cuda-samples' `reduction_kernel.cu` a third of its time).
//
// Results join the unit's in source order, whatever thread checked them,
// and each kernel is checked in a context of its own: the output does not
// depend on --jobs.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_KERNELPIPELINE_H
#define GPURACE_ANALYZER_KERNELPIPELINE_H

#include "analyzer/FileAnalysis.h"
#include "analyzer/KernelAnalysis.h"

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace gpurace::analyzer {

class JobSlots;

class KernelPipeline {
public:
  explicit KernelPipeline(JobSlots &extra_jobs) : extra_jobs_(extra_jobs) {}
  ~KernelPipeline();
  KernelPipeline(const KernelPipeline &) = delete;
  KernelPipeline &operator=(const KernelPipeline &) = delete;

  // Queues a prepared kernel, in source order; checks it here and now when
  // no other thread can.
  void add(const clang::FunctionDecl &kernel, std::unique_ptr<KernelAnalysis> analysis);
  struct Failure {
    const clang::FunctionDecl *kernel;
    std::string why;
  };
  // Checks what is left (this thread helping), then adds every kernel's
  // results to `out` in the order they were added; the kernels whose check
  // failed, in that order, are returned instead. Call once.
  std::vector<Failure> finish(FileAnalysis &out);

private:
  struct Item {
    const clang::FunctionDecl *kernel;
    std::unique_ptr<KernelAnalysis> analysis;
    FileAnalysis results;
    std::string failure;
  };
  static void check(Item &item);
  // Takes and checks items until the pipeline is closed and drained.
  void work();
  void close();
  void join();

  JobSlots &extra_jobs_;
  std::deque<Item> items_; // stable addresses: threads check items in place
  std::mutex mutex_;
  std::condition_variable ready_;
  size_t next_ = 0;    // the first item no thread has taken
  size_t waiting_ = 0; // helpers waiting for an item
  bool closed_ = false;
  std::vector<std::thread> helpers_;
};

} // namespace gpurace::analyzer

#endif
