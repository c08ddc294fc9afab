//===- CpuLaunch.h - kernel launches on the CPU harness ---------*- C++ -*-===//
//
// `gpurace instrument --cpu-harness` rewrites `k<<<g, b, shmem, s>>>(args)`
// into `gpurace_cpu::launcher(k, "k", g, b, shmem, s)(args)` and
// cudaLaunchCooperativeKernel/cudaLaunchKernel into launchPacked; both run
// the kernel here, one host thread per CUDA thread.
//
// With GPURACE_TRACE_DIR set, each launch of an instrumented program writes
// DIR/launch-<n>.trace (TraceFormat.h), flushed after every block so that
// the buffer only ever holds one block's records (a cooperative launch is
// flushed at its end).
//
// A launch the harness cannot run faithfully ends the program with exit
// status 77 and "gpurace-cpu: skipped: REASON" on stderr: launch dims are
// never changed, since that would change the verdict.
//
// Part of CpuCuda.h; include that instead.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_HARNESS_CPULAUNCH_H
#define GPURACE_RUNTIME_HARNESS_CPULAUNCH_H

#include "runtime/harness/TraceFormat.h"

#include <pthread.h>
#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <utility>

namespace gpurace_cpu {

constexpr int kSkipExitStatus = 77;
// Dynamic shared memory per block, as on most GPUs without opting in.
constexpr size_t kDynamicSharedBytes = 48 * 1024;

// The harness's limits, from the environment: every limit keeps the run
// exact and only decides whether it runs at all.
inline uint64_t envLimit(const char *name, uint64_t fallback) {
  const char *text = std::getenv(name);
  return text && *text ? std::strtoull(text, nullptr, 10) : fallback;
}
// Threads of one launch: each is a host thread.
inline uint64_t maxThreads() { return envLimit("GPURACE_CPU_MAX_THREADS", 262144); }
// Threads of a cooperative launch, which all run at once.
inline uint64_t maxConcurrentThreads() {
  return envLimit("GPURACE_CPU_MAX_CONCURRENT", 16384);
}
// Record slots of the trace buffer (one block's records, or a cooperative
// launch's); memory is only committed as records are written.
inline uint64_t recordCapacity() { return envLimit("GPURACE_CPU_RECORDS", 1u << 21); }

[[noreturn]] inline void skipProgram(const std::string &reason) {
  std::fprintf(stderr, "gpurace-cpu: skipped: %s\n", reason.c_str());
  std::fflush(nullptr);
  std::_Exit(kSkipExitStatus);
}

struct LaunchConfig {
  const char *kernel = "";
  dim3 grid, block;
  size_t shared_bytes = 0;
  bool cooperative = false;
  uint64_t blocks() const { return uint64_t(grid.x) * grid.y * grid.z; }
  uint64_t blockThreads() const { return uint64_t(block.x) * block.y * block.z; }
  uint64_t threads() const { return blocks() * blockThreads(); }
};

inline Barrier grid_barrier;
inline bool cooperative_launch = false;

// Records of the current launch, appended to its trace file block by block.
class TraceWriter {
public:
  explicit TraceWriter(const LaunchConfig &config) : config_(config) {
    static uint64_t launches = 0;
    header_.launch_id = launches++;
    const char *dir = std::getenv("GPURACE_TRACE_DIR");
    if (!dir || !*dir || !&gpurace_record_buffer)
      return;
    std::string path = std::string(dir) + "/launch-" +
                       std::to_string(header_.launch_id) + ".trace";
    file_ = std::fopen(path.c_str(), "wb");
    if (!file_)
      skipProgram("cannot write the trace file " + path);
    header_.magic = gpurace::rt::kTraceMagic;
    unsigned dims[6] = {config.grid.x, config.grid.y, config.grid.z,
                        config.block.x, config.block.y, config.block.z};
    std::memcpy(header_.grid, dims, sizeof header_.grid);
    std::memcpy(header_.block, dims + 3, sizeof header_.block);
    header_.cooperative = config.cooperative;
    header_.dynamic_shared_bytes = uint32_t(config.shared_bytes);
    std::snprintf(header_.kernel, sizeof header_.kernel, "%s", config.kernel);
    writeHeader();
    gpurace_record_buffer = buffer();
  }

  ~TraceWriter() {
    if (!file_)
      return;
    gpurace_record_buffer = nullptr;
    writeHeader();
    if (std::fclose(file_) != 0)
      skipProgram("cannot finish the trace file");
  }

  // Appends the buffer's records to the file and empties it.
  void flush() {
    if (!file_)
      return;
    gpurace::rt::RecordBufferHeader *b = buffer();
    uint64_t used = b->next < b->capacity ? b->next : b->capacity;
    auto *records = reinterpret_cast<gpurace::rt::WarpRecord *>(b + 1);
    for (uint64_t i = 0; i < used; ++i)
      append(records[i]);
    header_.records += used;
    header_.lost += b->lost;
    b->next = 0;
    b->lost = 0;
  }

private:
  static gpurace::rt::RecordBufferHeader *buffer() {
    static gpurace::rt::RecordBufferHeader *b = [] {
      uint64_t capacity = recordCapacity();
      void *p = mmap(nullptr, gpurace::rt::recordBufferBytes(capacity),
                     PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                     -1, 0);
      if (p == MAP_FAILED)
        skipProgram("cannot map a trace buffer of " + std::to_string(capacity) + " records");
      auto *h = static_cast<gpurace::rt::RecordBufferHeader *>(p);
      h->capacity = capacity;
      h->magic = gpurace::rt::kBufferMagic;
      return h;
    }();
    return b;
  }

  void append(const gpurace::rt::WarpRecord &r) {
    // Concurrent blocks would share the one copy of each __shared__ variable.
    if (config_.cooperative && (r.flags & gpurace::rt::kFlagShared))
      skipProgram(std::string("cooperative kernel ") + config_.kernel +
                  " uses shared memory, which its concurrently running blocks "
                  "would share on the harness");
    bool ok = std::fwrite(&r, gpurace::rt::kRecordHeadBytes, 1, file_) == 1;
    for (unsigned lane = 0; lane < 32; ++lane)
      if (r.active_mask & (1u << lane))
        ok = ok && std::fwrite(&r.address[lane], 8, 1, file_) == 1 &&
             std::fwrite(&r.value[lane], 8, 1, file_) == 1;
    if (!ok)
      skipProgram("cannot write the trace file");
  }

  void writeHeader() {
    if (std::fseek(file_, 0, SEEK_SET) != 0 ||
        std::fwrite(&header_, sizeof header_, 1, file_) != 1 ||
        std::fseek(file_, 0, SEEK_END) != 0)
      skipProgram("cannot write the trace file");
  }

  LaunchConfig config_;
  gpurace::rt::TraceFileHeader header_ = {};
  std::FILE *file_ = nullptr;
};

// Host threads with small stacks, so that a cooperative grid fits.
class ThreadPool {
public:
  void spawn(std::function<void()> body) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    auto *task = new std::function<void()>(std::move(body));
    pthread_t thread;
    int error = pthread_create(&thread, &attr, &run, task);
    pthread_attr_destroy(&attr);
    if (error != 0)
      skipProgram("cannot start host thread " + std::to_string(threads_.size() + 1) +
                  " of a launch");
    threads_.push_back(thread);
  }
  void join() {
    for (pthread_t t : threads_)
      pthread_join(t, nullptr);
    threads_.clear();
  }

private:
  static void *run(void *task) {
    std::unique_ptr<std::function<void()>> body(static_cast<std::function<void()> *>(task));
    (*body)();
    return nullptr;
  }
  std::vector<pthread_t> threads_;
};

inline void checkLimits(const LaunchConfig &c) {
  std::string launch = std::string("launch of ") + c.kernel;
  if (c.blockThreads() > 1024)
    skipProgram(launch + " has " + std::to_string(c.blockThreads()) +
                " threads per block, over CUDA's 1024");
  if (c.threads() > maxThreads())
    skipProgram(launch + " has " + std::to_string(c.threads()) +
                " threads, over the harness's limit of " + std::to_string(maxThreads()) +
                " (GPURACE_CPU_MAX_THREADS)");
  if (c.cooperative && c.threads() > maxConcurrentThreads())
    skipProgram("cooperative " + launch + " has " + std::to_string(c.threads()) +
                " threads to run at once, over the harness's limit of " +
                std::to_string(maxConcurrentThreads()) + " (GPURACE_CPU_MAX_CONCURRENT)");
  if (c.shared_bytes > kDynamicSharedBytes)
    skipProgram(launch + " asks for " + std::to_string(c.shared_bytes) +
                " bytes of dynamic shared memory, over the harness's " +
                std::to_string(kDynamicSharedBytes));
}

// Sets up the calling host thread as thread `t` of block `index`.
inline void enterBlock(Block &block, dim3 index, unsigned t, const LaunchConfig &c) {
  thread_idx = dim3(t % c.block.x, (t / c.block.x) % c.block.y, t / (c.block.x * c.block.y));
  block_idx = index;
  current_block = &block;
}

// A thread that returned no longer holds its warp, block or grid back.
inline void leaveBlock(const LaunchConfig &c) {
  currentWarp().exit(laneId());
  current_block->barrier.leave();
  if (c.cooperative)
    grid_barrier.leave();
}

template <class F> void forEachBlock(const LaunchConfig &c, F f) {
  for (unsigned bz = 0; bz < c.grid.z; ++bz)
    for (unsigned by = 0; by < c.grid.y; ++by)
      for (unsigned bx = 0; bx < c.grid.x; ++bx)
        f(dim3(bx, by, bz));
}

// Runs the blocks of a launch one after the other on one set of host
// threads, one per thread of a block: starting a host thread costs more
// than most blocks' work.
class BlockRunner {
public:
  BlockRunner(const LaunchConfig &c, const std::function<void()> &kernel)
      : config_(c), kernel_(kernel) {
    for (unsigned t = 0; t < c.blockThreads(); ++t)
      pool_.spawn([this, t] { work(t); });
  }
  ~BlockRunner() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    start_.notify_all();
    pool_.join();
  }

  // Returns when every thread of the block has returned.
  void run(Block &block, dim3 index) {
    std::unique_lock<std::mutex> lock(mutex_);
    block_ = &block;
    index_ = index;
    finished_ = 0;
    ++generation_;
    start_.notify_all();
    done_.wait(lock, [&] { return finished_ == config_.blockThreads(); });
  }

private:
  void work(unsigned t) {
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        start_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_)
          return;
        seen = generation_;
        enterBlock(*block_, index_, t, config_);
      }
      kernel_();
      leaveBlock(config_);
      std::lock_guard<std::mutex> lock(mutex_);
      if (++finished_ == config_.blockThreads())
        done_.notify_one();
    }
  }

  const LaunchConfig &config_;
  const std::function<void()> &kernel_;
  ThreadPool pool_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  Block *block_ = nullptr;
  dim3 index_;
  uint64_t generation_ = 0, finished_ = 0;
  bool stop_ = false;
};

// Every thread of the grid at once, for grid.sync().
inline void runCooperative(const LaunchConfig &c, const std::function<void()> &kernel) {
  grid_barrier.reset(c.threads());
  std::vector<std::unique_ptr<Block>> blocks;
  ThreadPool pool;
  forEachBlock(c, [&](dim3 index) {
    blocks.push_back(std::make_unique<Block>(unsigned(c.blockThreads())));
    Block *block = blocks.back().get();
    for (unsigned t = 0; t < c.blockThreads(); ++t)
      pool.spawn([block, index, t, &c, &kernel] {
        enterBlock(*block, index, t, c);
        kernel();
        leaveBlock(c);
      });
  });
  pool.join();
}

inline void runLaunch(const LaunchConfig &c, const std::function<void()> &kernel) {
  checkLimits(c);
  grid_dim = c.grid;
  block_dim = c.block;
  cooperative_launch = c.cooperative;
  TraceWriter trace(c);
  if (c.cooperative) {
    runCooperative(c, kernel);
  } else {
    BlockRunner runner(c, kernel);
    forEachBlock(c, [&](dim3 index) {
      Block block(unsigned(c.blockThreads()));
      runner.run(block, index);
      trace.flush();
    });
  }
  trace.flush();
  cooperative_launch = false;
}

inline void gridSync() {
  if (!cooperative_launch)
    skipProgram("grid.sync() outside a cooperative launch");
  grid_barrier.wait();
}

// `k<<<g, b, shmem, stream>>>(args)` becomes `launcher(k, "k", g, b, shmem,
// stream)(args)`: the call converts the arguments as the launch would.
template <class... Params> struct Launcher {
  void (*kernel)(Params...);
  LaunchConfig config;
  int operator()(Params... args) const {
    auto k = kernel;
    runLaunch(config, [=] { k(args...); });
    return 0;
  }
};

template <class... Params, class Stream = std::nullptr_t>
Launcher<Params...> launcher(void (*kernel)(Params...), const char *name, dim3 grid,
                             dim3 block, size_t shared_bytes = 0, Stream = nullptr) {
  return {kernel, {name, grid, block, shared_bytes, false}};
}

// A launch driven by hand (a test's driver), recording into whatever buffer
// the driver set gpurace_record_buffer to.
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), dim3 grid, dim3 block, Args... args) {
  runLaunch({"kernel", grid, block, 0, false}, [=] { kernel(args...); });
}

// A record buffer for one launch driven by hand, and the trace file a test
// reads back: grid and block dims, then the buffer header and its records.
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

// cudaLaunchKernel / cudaLaunchCooperativeKernel with `args[i]` pointing
// at the i-th argument.
template <class... Params, size_t... I>
void launchUnpacked(void (*kernel)(Params...), const LaunchConfig &config, void **args,
                    std::index_sequence<I...>) {
  std::tuple<std::decay_t<Params>...> values(
      *static_cast<std::decay_t<Params> *>(args[I])...);
  runLaunch(config, [=] { std::apply(kernel, values); });
}

template <class... Params, class Stream = std::nullptr_t>
int launchPacked(bool cooperative, void (*kernel)(Params...), const char *name,
                 dim3 grid, dim3 block, void **args, size_t shared_bytes = 0,
                 Stream = nullptr) {
  launchUnpacked(kernel, {name, grid, block, shared_bytes, cooperative}, args,
                 std::index_sequence_for<Params...>());
  return 0;
}

// The dynamic shared memory of every `extern __shared__` array, which the
// instrumenter turns into a pointer to this.
alignas(16) static char dynamic_shared[kDynamicSharedBytes]
    __attribute__((section("gpurace_shared"), used));
template <class T> T *dynamicShared() { return reinterpret_cast<T *>(dynamic_shared); }

} // namespace gpurace_cpu

#endif
