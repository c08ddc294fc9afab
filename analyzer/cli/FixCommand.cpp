// `gpurace fix`: verified repairs of the findings of `gpurace analyze`, as
// a unified diff, as JSON, or written into the files.
#include "analyzer/cli/AnalyzerCommands.h"

#include "analyzer/Analyzer.h"
#include "analyzer/frontend/PrecompiledHeaders.h"
#include "analyzer/repair/RedundantBarriers.h"
#include "analyzer/repair/RepairMessages.h"
#include "proto/JsonCodec.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>
#include <unistd.h>

namespace gpurace {

namespace {

struct FixFlags {
  analyzer::AnalyzeOptions options;
  std::string format = "text";
  std::string host_facts = "on";
  bool no_host = false;
  // --no-cache: no precompiled headers.
  bool no_cache = false;
  bool apply = false;
  bool redundant_barriers = false;
};

// Clang-style notes, one per finding, on stderr: the diff on stdout stays
// a patch that `patch -p0` or `git apply` takes as it is.
void printNotes(const analyzer::ProgramRepair &repair) {
  for (const analyzer::RepairOutcome &outcome : repair.outcomes) {
    const v1::SourceLocation &at = outcome.finding.first().location();
    std::string where =
        at.file() + ":" + std::to_string(at.line()) + ":" + std::to_string(at.column()) + ": ";
    std::cerr << where;
    std::string race = "race on '" + outcome.finding.first().expression() + "'";
    if (outcome.repaired && !outcome.summary.empty()) {
      std::cerr << "fix-it: " << outcome.summary << " (verified: " << race
                << " gone, no new finding)\n";
      if (!outcome.prerequisite.empty())
        std::cerr << where << "note: it needs " << outcome.prerequisite << "\n";
    } else if (outcome.repaired) {
      std::cerr << "note: " << race << " is removed by the change for the finding "
                << outcome.repaired_with << "\n";
    } else {
      std::cerr << "warning: no verified repair for the " << race << ": " << outcome.reason
                << "\n";
    }
  }
}

bool writeFile(const std::string &path, const std::string &text) {
  // Written beside the file and renamed over it: an interrupted write
  // leaves the original whole.
  std::string temporary = path + ".gpurace-fix.tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) {
      std::remove(temporary.c_str());
      return false;
    }
  }
  return std::rename(temporary.c_str(), path.c_str()) == 0;
}

// Lists the barriers the program does not need; changes nothing.
int runRedundantBarriers(const FixFlags &flags) {
  analyzer::BarrierSearch search;
  std::string error;
  if (!analyzer::findRedundantBarriers(flags.options, search, error)) {
    std::cerr << "gpurace fix: error: " << error << "\n";
    return kExitToolError;
  }
  if (flags.format == "json") {
    v1::RepairResult result;
    for (const v1::RedundantBarrier &barrier : search.redundant)
      *result.add_redundant_barriers() = barrier;
    result.set_barriers_checked(search.checked);
    std::cout << toJson(result) << "\n";
  } else {
    for (const v1::RedundantBarrier &barrier : search.redundant) {
      const v1::SourceLocation &at = barrier.location();
      std::cout << at.file() << ":" << at.line() << ":" << at.column()
                << ": note: '" << barrier.expression()
                << "' can be removed: without it no race appears in any launch analyzed\n";
    }
    std::cout << search.redundant.size() << " of " << search.checked
              << " barriers can be removed, each on its own\n";
  }
  return kExitOk;
}

int runFix(FixFlags &flags, const CommandContext &context) {
  analyzer::AnalyzeOptions &options = flags.options;
  options.extra_flags = context.passthrough;
  options.host_facts = flags.host_facts == "on" && !flags.no_host;
  if (options.jobs == 0)
    options.jobs = std::max(1u, std::thread::hardware_concurrency());
  if (flags.no_cache)
    options.cache_dir.clear();
  if (flags.redundant_barriers)
    return runRedundantBarriers(flags);
  analyzer::ProgramRepair repair;
  std::string error;
  if (!analyzer::repairProgram(options, repair, error)) {
    std::cerr << "gpurace fix: error: " << error << "\n";
    return kExitToolError;
  }
  for (const v1::FileError &e : repair.before.errors())
    std::cerr << e.file() << ":" << e.line() << ":" << e.column() << ": error: " << e.message()
              << "\n";
  v1::RepairResult result = analyzer::repairResult(repair);
  if (flags.format == "json") {
    std::cout << toJson(result) << "\n";
  } else {
    printNotes(repair);
    for (const auto &[file, diff] : result.diffs())
      std::cout << diff;
  }
  if (flags.apply)
    for (const auto &[file, texts] : repair.files)
      if (!writeFile(file, texts.second)) {
        std::cerr << "gpurace fix: error: cannot write '" << file << "'\n";
        return kExitToolError;
      }
  if (repair.before.errors_size() > 0)
    return kExitToolError;
  return repair.outcomes.empty() ? kExitOk : kExitFindings;
}

} // namespace

Subcommand fixSubcommand() {
  Subcommand command;
  command.name = "fix";
  command.summary = "Propose verified repairs for the races and divergent barriers analyze finds";
  command.accepts_passthrough = true;
  command.setup = [](CLI::App &app, const CommandContext &context) {
    auto flags = std::make_shared<FixFlags>();
    app.add_option("files", flags->options.files, "CUDA source files to repair");
    app.add_option("-p,--build-dir", flags->options.build_dir,
                   "Folder with compile_commands.json; without FILEs, every .cu it lists");
    app.add_option("--format", flags->format,
                   "text: fix-it notes on stderr and a unified diff on stdout; json: the "
                   "repairs as data (RepairResult)")
        ->check(CLI::IsMember({"text", "json"}))
        ->default_str("text");
    app.add_flag("--apply", flags->apply,
                 "Write the verified repairs into the files (everything else kept byte for "
                 "byte)");
    app.add_flag("--redundant-barriers", flags->redundant_barriers,
                 "Instead of repairing, list the barriers whose removal (each on its own) "
                 "brings no race candidate in any launch analyzed: a performance hint");
    app.add_option("--min-score", flags->options.min_score,
                   "Candidates scoring at least this are findings to repair")
        ->check(CLI::Range(0.0, 1.0))
        ->default_str(std::to_string(analyzer::kDefaultMinScore).substr(0, 3));
    app.add_option("--kernel", flags->options.kernel_filter, "Repair only this kernel");
    app.add_option("--host-facts", flags->host_facts,
                   "Use what the host code says about launches (on) or analyze kernels alone (off)")
        ->check(CLI::IsMember({"on", "off"}));
    app.add_flag("--no-host", flags->no_host, "Same as --host-facts=off");
    app.add_flag("--assume-warp-lockstep", flags->options.assume_warp_lockstep,
                 "Assume pre-Volta lock-step warps (default: independent thread scheduling)");
    app.add_option("-j,--jobs", flags->options.jobs,
                   "Threads: files analyzed in parallel, and the kernels of a file checked side "
                   "by side on the threads no file needs (default: the number of cores)")
        ->check(CLI::Range(1u, 1024u));
    app.add_option("--query-effort", flags->options.query_rlimit,
                   "Solver effort per query (Z3 resource units)")
        ->check(CLI::Range(1000u, 4000000000u));
    app.add_option("--cuda-path", flags->options.cuda_path,
                   "CUDA toolkit whose headers to parse with (default: $CUDA_PATH, "
                   "$CUDA_HOME, nvcc on PATH, /usr/local/cuda)");
    app.add_flag("--fallback-headers", flags->options.fallback_headers,
                 "Parse with gpurace's own CUDA declarations even if a toolkit is installed");
    app.add_option("--cache-dir", flags->options.cache_dir,
                   "Where the CUDA headers every file includes first are kept precompiled, "
                   "shared by runs (default: $XDG_CACHE_HOME/gpurace or ~/.cache/gpurace)");
    app.add_flag("--no-cache", flags->no_cache,
                 "Parse every file's headers afresh: no precompiled headers read or written");
    app.footer(
        "Forms: gpurace fix [OPTIONS] FILE.cu... [-- CLANG_FLAGS]\n"
        "       gpurace fix -p BUILD_DIR [FILE.cu...]\n"
        "Each finding's candidates (the matching atomic for a read-modify-write, a\n"
        "wider scope, a __syncthreads() or __syncwarp() between the accesses, a\n"
        "__threadfence() around a hand-off, a grid sync between blocks, a divergent\n"
        "barrier taken out of its branch) are tried in turn; one is kept only when\n"
        "analyzing the edited program shows the finding gone and no new finding or\n"
        "error. gpurace analyze --fix reports the same repairs without writing.\n"
        "Exit codes: 0 nothing to fix, 2 findings (repaired or not), 1 error;\n"
        "with --redundant-barriers: 0, or 1 on error.");
    flags->options.jobs = 0;
    flags->options.cache_dir = analyzer::defaultCacheDirectory();
    return [flags, &context]() { return runFix(*flags, context); };
  };
  return command;
}

} // namespace gpurace
