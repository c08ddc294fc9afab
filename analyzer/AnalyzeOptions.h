//===- AnalyzeOptions.h - what `gpurace analyze` was asked ------*- C++ -*-===//
#ifndef GPURACE_ANALYZER_ANALYZEOPTIONS_H
#define GPURACE_ANALYZER_ANALYZEOPTIONS_H

#include "analyzer/model/Arith.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpurace::analyzer {

using Dims = std::array<uint32_t, 3>;

// The default threshold between findings and other candidates: a candidate
// with no imprecision scores 1.0, one whose addresses depend on values
// loaded from two arrays 0.56, one of three arrays 0.42.
inline constexpr double kDefaultMinScore = 0.5;

struct AnalyzeOptions {
  std::vector<std::string> files;
  // Folder holding compile_commands.json (-p).
  std::string build_dir;
  // Flags after "--", added to every file's flags.
  std::vector<std::string> extra_flags;
  // The CUDA toolkit to parse with (--cuda-path); empty: search for one.
  std::string cuda_path;
  // Parse with gpurace's own declaration headers even if a toolkit exists.
  bool fallback_headers = false;
  // Where precompiled forced includes are kept (PrecompiledHeaders.h);
  // empty: every parse reads the headers.
  std::string cache_dir;
  OverflowMode overflow = OverflowMode::Math;
  // Launch dims for kernels analyzed without a visible launch.
  std::optional<Dims> block_dim, grid_dim;
  std::string kernel_filter;
  bool host_facts = true;
  bool assume_warp_lockstep = false;
  // Pointers a launch takes from parameters of a function with no visible
  // caller may overlap (by default they are distinct buffers, as in the
  // kernel-only analysis, and results state that assumption).
  bool assume_aliasing = false;
  // Threads: files analyzed in parallel, and a file's kernels checked on
  // the threads no file needs (JobSlots.h).
  unsigned jobs = 1;
  unsigned query_rlimit = 400000;
  // A wall-clock cap per query, a safety net for the few queries that Z3's
  // effort limit does not bound (some nonlinear ones): a pair it stops is
  // reported as undecided and says so, since that verdict depends on the
  // machine. Everything else is decided by the deterministic effort limit.
  unsigned query_timeout_ms = 10000;
  unsigned warp_size = 32;
  double min_score = kDefaultMinScore;
  // Also check shared-memory bank conflicts and global coalescing.
  bool perf = false;
  // The least cost ratio (cost over best) a perf finding is shown at; 0:
  // the default rule (2 inside a loop, 4 elsewhere; README).
  double perf_min_ratio = 0;
  // Texts analyzed in place of these files' (keyed as `files` names them):
  // `gpurace fix` verifies a repair on the edited text before writing it.
  std::map<std::string, std::string> replaced_contents;
};

} // namespace gpurace::analyzer

#endif
