//===- AnalyzerFuzzer.cpp - libFuzzer target for `gpurace analyze` --------===//
//
// Each input is a CUDA source file. It is written to a private temporary
// folder as input.cu and analyzed through the analyzer's public entry point,
// so the front end, the kernel model, the host facts, the pair checks and
// the ranking all see it as `gpurace analyze input.cu` would. The solver's
// per-query limits are lowered so that one input takes well under a second,
// and the parse uses gpurace's own CUDA declaration headers, which parse in
// a fraction of a real toolkit's time (GPURACE_FUZZ_CUDA_PATH=DIR parses
// with the toolkit at DIR instead).
//
// Two options follow from the input's length, so that a reproducer replays
// exactly: length % 4 == 1 or 3 analyzes without host facts, length % 4 ==
// 2 or 3 with wrap-around integers.
//
//===----------------------------------------------------------------------===//
#include "analyzer/Analyzer.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <unistd.h>

// Sanitizer reports end the run with a stack, whatever the environment says.
extern "C" const char *__asan_default_options() {
  return "detect_leaks=0:abort_on_error=0:print_stacktrace=1";
}
extern "C" const char *__ubsan_default_options() {
  return "halt_on_error=1:print_stacktrace=1";
}

namespace {

std::string g_dir;
std::string g_path;

void removeInput() {
  if (!g_path.empty())
    unlink(g_path.c_str());
  if (!g_dir.empty())
    rmdir(g_dir.c_str());
}

bool writeInput(const uint8_t *data, size_t size) {
  FILE *out = std::fopen(g_path.c_str(), "wb");
  if (!out)
    return false;
  bool ok = std::fwrite(data, 1, size, out) == size;
  return std::fclose(out) == 0 && ok;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  const char *base = std::getenv("GPURACE_FUZZ_TMPDIR");
  if (!base || !*base)
    base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  std::string pattern = std::string(base) + "/gpurace-fuzz-XXXXXX";
  if (!mkdtemp(pattern.data())) {
    std::perror("gpurace fuzzer: mkdtemp");
    std::abort();
  }
  g_dir = pattern;
  g_path = g_dir + "/input.cu";
  std::atexit(removeInput);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  // An #include of a device or a kernel file would block or read without
  // end; that says nothing about the analyzer.
  for (std::string_view special : {"/dev/", "/proc/", "/sys/"})
    if (text.find(special) != std::string_view::npos)
      return -1;
  if (!writeInput(data, size)) {
    std::perror("gpurace fuzzer: writing the input");
    std::abort();
  }

  gpurace::analyzer::AnalyzeOptions options;
  options.files = {g_path};
  options.jobs = 1;
  static const char *cuda_path = std::getenv("GPURACE_FUZZ_CUDA_PATH");
  if (cuda_path && *cuda_path)
    options.cuda_path = cuda_path;
  else
    options.fallback_headers = true;
  options.query_rlimit = 20000;
  options.query_timeout_ms = 200;
  options.host_facts = size % 4 == 0 || size % 4 == 2;
  if (size % 4 >= 2)
    options.overflow = gpurace::analyzer::OverflowMode::Wrap;

  gpurace::v1::AnalysisResult result;
  std::string error;
  if (!gpurace::analyzer::analyze(options, result, error)) {
    // The file was just written: failing to find it is a defect.
    std::fprintf(stderr, "gpurace fuzzer: analyze failed: %s\n", error.c_str());
    std::abort();
  }
  return 0;
}
