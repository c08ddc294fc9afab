#include "analyzer/Analyzer.h"

#include "analyzer/FileAnalysis.h"
#include "analyzer/JobSlots.h"
#include "analyzer/frontend/CompileFlags.h"
#include "analyzer/frontend/PrecompiledHeaders.h"
#include "analyzer/program/ProgramIndex.h"
#include "analyzer/report/InstrumentationPlan.h"
#include "analyzer/report/PerfReport.h"
#include "analyzer/report/Ranking.h"
#include "common/Version.h"

#include <clang/Tooling/CompilationDatabase.h>
#include <google/protobuf/util/time_util.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace gpurace::analyzer {

namespace {

bool isCudaSource(llvm::StringRef path) {
  return path.ends_with(".cu") || path.ends_with(".cuh");
}

// Relative include paths of a compile command are relative to its folder.
void absolutizeIncludePaths(std::vector<std::string> &flags, const std::string &directory) {
  for (size_t i = 0; i < flags.size(); ++i) {
    bool separate = (flags[i] == "-I" || flags[i] == "-isystem" || flags[i] == "-iquote" ||
                     flags[i] == "-idirafter" || flags[i] == "-include") &&
                    i + 1 < flags.size();
    if (separate) {
      ++i;
      if (!llvm::sys::path::is_absolute(flags[i])) {
        llvm::SmallString<256> path(directory);
        llvm::sys::path::append(path, flags[i]);
        flags[i] = std::string(path);
      }
      continue;
    }
    for (const char *prefix : {"-I", "-isystem", "-iquote", "-idirafter"}) {
      llvm::StringRef ref(flags[i]);
      if (ref.starts_with(prefix) && ref.size() > strlen(prefix) &&
          !llvm::sys::path::is_absolute(ref.substr(strlen(prefix)))) {
        llvm::SmallString<256> path(directory);
        llvm::sys::path::append(path, ref.substr(strlen(prefix)));
        flags[i] = std::string(prefix) + std::string(path);
        break;
      }
    }
  }
}

// A folder on the command line stands for every .cu file below it, in
// name order, so that `gpurace analyze src/` analyzes the program whole:
// a kernel with the launch in the next file. Headers are analyzed as part
// of the files that include them.
bool expandFolders(std::vector<std::string> &files, std::string &error) {
  std::vector<std::string> expanded;
  for (const std::string &file : files) {
    if (!llvm::sys::fs::is_directory(file)) {
      expanded.push_back(file);
      continue;
    }
    std::vector<std::string> found;
    std::error_code failure;
    for (llvm::sys::fs::recursive_directory_iterator it(file, failure), end;
         it != end && !failure; it.increment(failure))
      if (llvm::StringRef(it->path()).ends_with(".cu") && !llvm::sys::fs::is_directory(it->path()))
        found.push_back(it->path());
    if (failure) {
      error = "cannot read folder '" + file + "': " + failure.message();
      return false;
    }
    if (found.empty()) {
      error = "folder '" + file + "' holds no .cu file";
      return false;
    }
    std::sort(found.begin(), found.end());
    expanded.insert(expanded.end(), found.begin(), found.end());
  }
  files = std::move(expanded);
  return true;
}

} // namespace

bool programUnits(const AnalyzeOptions &options, std::vector<ProgramUnit> &units,
                  std::vector<std::string> &dropped, std::string &error) {
  std::unique_ptr<clang::tooling::CompilationDatabase> database;
  if (!options.build_dir.empty()) {
    database = clang::tooling::CompilationDatabase::loadFromDirectory(
        options.build_dir, error);
    if (!database) {
      error = "cannot read compile_commands.json in '" + options.build_dir +
              "': " + error;
      return false;
    }
  }
  std::vector<std::string> files = options.files;
  if (!expandFolders(files, error))
    return false;
  if (files.empty() && database)
    for (const std::string &file : database->getAllFiles())
      if (isCudaSource(file))
        files.push_back(file);
  if (files.empty()) {
    error = database ? "compile_commands.json in '" + options.build_dir +
                           "' lists no .cu file"
                     : "no input file (give FILE.cu... or -p BUILD_DIR)";
    return false;
  }
  std::set<std::string> dropped_seen;
  ParsingFlags extra = commandLineFlags(options.extra_flags);
  for (const std::string &file : files) {
    ProgramUnit unit{file, {}, {}};
    if (auto replaced = options.replaced_contents.find(file);
        replaced != options.replaced_contents.end())
      unit.contents = replaced->second;
    if (database) {
      llvm::SmallString<256> absolute(file);
      llvm::sys::fs::make_absolute(absolute);
      auto commands = database->getCompileCommands(absolute);
      if (!commands.empty()) {
        unit.flags = parsingFlags(commands.front().CommandLine);
        absolutizeIncludePaths(unit.flags.flags, commands.front().Directory);
        for (const std::string &flag : unit.flags.dropped)
          if (dropped_seen.insert(flag).second)
            dropped.push_back(flag);
      }
    }
    unit.flags.flags.insert(unit.flags.flags.end(), extra.flags.begin(), extra.flags.end());
    if (!extra.gpu_arch.empty())
      unit.flags.gpu_arch = extra.gpu_arch;
    units.push_back(std::move(unit));
  }
  return true;
}

bool headerSetup(const AnalyzeOptions &options, HeaderSetup &headers, std::string &error) {
  if (!options.cache_dir.empty())
    headers.precompiled = std::make_shared<PrecompiledHeaders>(options.cache_dir);
  if (options.fallback_headers)
    return true;
  headers.toolkit = findCudaToolkit(options.cuda_path, error);
  return headers.toolkit || options.cuda_path.empty();
}

namespace {

std::vector<FileAnalysis> runUnits(const std::vector<ProgramUnit> &units,
                                   const ProgramIndex &index, const HeaderSetup &headers,
                                   const AnalyzeOptions &options,
                                   const ProgressCallback &progress) {
  std::vector<FileAnalysis> results(units.size());
  unsigned count = std::max(1u, std::min<unsigned>(options.jobs, units.size()));
  JobSlots extra_jobs(std::max(1u, options.jobs) - count);
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
  std::mutex progress_mutex;
  auto worker = [&] {
    for (size_t i = next++; i < units.size(); i = next++) {
      if (index.isIncluded(i))
        results[i].file = units[i].file;
      else
        results[i] = analyzeUnit(i, units, index, headers, options, extra_jobs);
      size_t finished = ++done;
      if (progress) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        progress(finished, units.size(), units[i].file);
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < count; ++t)
    threads.emplace_back(worker);
  worker();
  for (std::thread &thread : threads)
    thread.join();
  return results;
}

void recordFrontEnd(const HeaderSetup &headers, const std::vector<ProgramUnit> &units,
                    const ProgramIndex &index, const std::vector<std::string> &dropped,
                    v1::FrontEnd &front_end) {
  if (headers.toolkit) {
    front_end.set_headers("toolkit");
    front_end.set_cuda_path(headers.toolkit->root);
    front_end.set_cuda_version(headers.toolkit->version);
    front_end.set_found_by(headers.toolkit->found_by);
  } else {
    front_end.set_headers("fallback");
  }
  front_end.set_gpu_arch(targetArch(units.empty() ? "" : units.front().flags.gpu_arch));
  for (const std::string &flag : dropped)
    front_end.add_dropped_flags(flag);
  for (size_t i = 0; i < units.size(); ++i)
    if (index.isIncluded(i))
      front_end.add_included_inputs(units[i].file);
}

bool ranksBefore(const v1::RaceCandidate &a, const v1::RaceCandidate &b) {
  if (a.score() != b.score())
    return a.score() > b.score();
  auto where = [](const v1::RaceCandidate &c) {
    return std::make_tuple(c.first().location().file(), c.first().location().line(),
                           c.second().location().line(), c.fingerprint());
  };
  return where(a) < where(b);
}

} // namespace

bool isFinding(const v1::RaceCandidate &candidate, double min_score) {
  return candidate.score() >= min_score && !candidate.has_suppression() &&
         candidate.benign().empty();
}

bool analyze(const AnalyzeOptions &options, v1::AnalysisResult &result,
             std::string &error, const ProgressCallback &progress) {
  using google::protobuf::util::TimeUtil;
  *result.mutable_started_at() = TimeUtil::GetCurrentTime();
  result.set_tool_version(kVersion);
  std::vector<ProgramUnit> units;
  std::vector<std::string> dropped;
  HeaderSetup headers;
  if (!programUnits(options, units, dropped, error) ||
      !headerSetup(options, headers, error))
    return false;
  // A lone file needs no first pass: it defines and launches all it sees.
  ProgramIndex index = units.size() == 1
                           ? ProgramIndex::singleUnit()
                           : ProgramIndex::build(units, headers, std::max(1u, options.jobs));
  recordFrontEnd(headers, units, index, dropped, *result.mutable_front_end());

  std::vector<FileAnalysis> files = runUnits(units, index, headers, options, progress);
  std::vector<v1::RaceCandidate> candidates;
  std::set<std::string> fingerprints;
  std::vector<v1::SyncSite> sync_sites;
  std::vector<v1::PerfFinding> perf_findings;
  bool counts_tickets = false;
  for (FileAnalysis &file : files) {
    result.add_files_analyzed(file.file);
    if (file.partial)
      result.add_partial_files(file.file);
    for (v1::FileError &e : file.errors) {
      if (e.file().empty())
        e.set_file(file.file);
      *result.add_errors() = e;
    }
    for (v1::FileError &w : file.warnings)
      *result.add_warnings() = w;
    result.set_kernels_analyzed(result.kernels_analyzed() + file.kernels);
    result.set_pairs_checked(result.pairs_checked() + file.queries);
    counts_tickets |= file.counts_tickets;
    for (v1::RaceCandidate &candidate : file.candidates) {
      finalizeCandidate(candidate);
      // A kernel in a header shared by several files is reported once.
      if (fingerprints.insert(candidate.fingerprint()).second)
        candidates.push_back(std::move(candidate));
    }
    for (v1::RaceFreedomProof &proof : file.proofs) {
      for (v1::AccessSite *site : {proof.mutable_first(), proof.mutable_second()})
        site->set_site_id(hashSiteId(site->site_id()));
      *result.add_race_freedom_proofs() = std::move(proof);
    }
    for (v1::SyncSite &site : file.sync_sites) {
      site.set_site_id(hashSiteId(site.site_id()));
      sync_sites.push_back(std::move(site));
    }
    for (v1::PerfFinding &finding : file.perf_findings) {
      finalizePerfFinding(finding, options.perf_min_ratio);
      if (fingerprints.insert(finding.fingerprint()).second)
        perf_findings.push_back(std::move(finding));
    }
  }
  std::stable_sort(perf_findings.begin(), perf_findings.end(), perfRanksBefore);
  for (v1::PerfFinding &finding : perf_findings)
    *result.add_perf_findings() = std::move(finding);
  std::stable_sort(candidates.begin(), candidates.end(), ranksBefore);
  for (v1::RaceCandidate &candidate : candidates) {
    candidate.set_below_threshold(candidate.score() < options.min_score ||
                                  !candidate.benign().empty());
    *result.add_candidates() = std::move(candidate);
  }

  v1::AnalysisOptions *recorded = result.mutable_options();
  recorded->set_min_score(options.min_score);
  recorded->set_overflow(options.overflow == OverflowMode::Math ? "math" : "wrap");
  recorded->set_assume_warp_lockstep(options.assume_warp_lockstep);
  recorded->set_assume_aliasing(options.assume_aliasing);
  recorded->set_use_host_facts(options.host_facts);
  recorded->set_warp_size(options.warp_size);
  recorded->set_perf(options.perf);
  if (options.overflow == OverflowMode::Math) {
    v1::Assumption *no_overflow = result.add_assumptions();
    no_overflow->set_kind(v1::HOST_FACT_KIND_ANALYSIS);
    no_overflow->set_role(v1::Assumption::ROLE_USED);
    no_overflow->set_description(
        "no integer overflow: index arithmetic is on mathematical integers "
        "(--overflow=wrap models 32/64-bit wrap-around)");
  }
  if (counts_tickets) {
    v1::Assumption *tickets = result.add_assumptions();
    tickets->set_kind(v1::HOST_FACT_KIND_ANALYSIS);
    tickets->set_role(v1::Assumption::ROLE_USED);
    tickets->set_description(
        "atomic counters do not wrap within a launch: threads that atomicAdd a "
        "nonzero constant to (or atomicInc) the same word get different old values");
  }
  *result.mutable_plan() = buildPlan(result, sync_sites, options.min_score);
  *result.mutable_finished_at() = TimeUtil::GetCurrentTime();
  return true;
}

} // namespace gpurace::analyzer
