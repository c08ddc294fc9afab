#include "analyzer/KernelPipeline.h"

#include "analyzer/JobSlots.h"

namespace gpurace::analyzer {

namespace {

void addResults(const FileAnalysis &kernel, FileAnalysis &out) {
  out.candidates.insert(out.candidates.end(), kernel.candidates.begin(), kernel.candidates.end());
  out.proofs.insert(out.proofs.end(), kernel.proofs.begin(), kernel.proofs.end());
  out.perf_findings.insert(out.perf_findings.end(), kernel.perf_findings.begin(),
                           kernel.perf_findings.end());
  out.sync_sites.insert(out.sync_sites.end(), kernel.sync_sites.begin(), kernel.sync_sites.end());
  out.kernels += kernel.kernels;
  out.queries += kernel.queries;
  out.counts_tickets |= kernel.counts_tickets;
}

} // namespace

KernelPipeline::~KernelPipeline() {
  close();
  join();
}

void KernelPipeline::check(Item &item) {
  item.analysis->check();
  if (item.analysis->failure().empty())
    item.analysis->addTo(item.results);
  else
    item.failure = item.analysis->failure();
  item.analysis.reset();
}

void KernelPipeline::add(const clang::FunctionDecl &kernel,
                         std::unique_ptr<KernelAnalysis> analysis) {
  std::unique_lock<std::mutex> lock(mutex_);
  items_.push_back({&kernel, std::move(analysis), {}, {}});
  if (waiting_ > 0) {
    ready_.notify_one();
    return;
  }
  if (extra_jobs_.tryTake()) {
    helpers_.emplace_back([this] {
      work();
      extra_jobs_.give();
    });
    return;
  }
  // Every helper is busy (or there is none): past one waiting kernel per
  // helper, this thread checks one before preparing more, so that prepared
  // kernels, each with its solver, do not pile up.
  if (items_.size() - next_ <= helpers_.size())
    return;
  Item &item = items_[next_++];
  lock.unlock();
  check(item);
}

void KernelPipeline::work() {
  for (;;) {
    std::unique_lock<std::mutex> lock(mutex_);
    ++waiting_;
    ready_.wait(lock, [this] { return next_ < items_.size() || closed_; });
    --waiting_;
    if (next_ >= items_.size())
      return;
    Item &item = items_[next_++];
    lock.unlock();
    check(item);
  }
}

void KernelPipeline::close() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
  }
  ready_.notify_all();
}

void KernelPipeline::join() {
  for (std::thread &helper : helpers_)
    helper.join();
  helpers_.clear();
}

std::vector<KernelPipeline::Failure> KernelPipeline::finish(FileAnalysis &out) {
  close();
  // This thread drains the queue beside the helpers.
  for (;;) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (next_ >= items_.size())
      break;
    Item &item = items_[next_++];
    lock.unlock();
    check(item);
  }
  join();
  std::vector<Failure> failures;
  for (const Item &item : items_) {
    if (item.failure.empty())
      addResults(item.results, out);
    else
      failures.push_back({item.kernel, item.failure});
  }
  return failures;
}

} // namespace gpurace::analyzer
