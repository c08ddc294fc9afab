#include "analyzer/Analyzer.h"

#include "analyzer/FileAnalysis.h"
#include "analyzer/frontend/CompileFlags.h"
#include "analyzer/report/InstrumentationPlan.h"
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

struct Job {
  std::string file;
  std::vector<std::string> flags;
};

bool isCudaSource(llvm::StringRef path) {
  return path.endswith(".cu") || path.endswith(".cuh");
}

bool collectJobs(const AnalyzeOptions &options, std::vector<Job> &jobs,
                 std::string &error) {
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
  for (const std::string &file : files) {
    Job job{file, {}};
    if (database) {
      llvm::SmallString<256> absolute(file);
      llvm::sys::fs::make_absolute(absolute);
      auto commands = database->getCompileCommands(absolute);
      if (!commands.empty()) {
        job.flags = parsingFlags(commands.front().CommandLine);
        // Relative include paths are relative to the command's directory.
        for (std::string &flag : job.flags) {
          for (const char *prefix : {"-I", "-isystem", "-iquote"}) {
            llvm::StringRef ref(flag);
            if (ref.startswith(prefix) && ref.size() > strlen(prefix) &&
                !llvm::sys::path::is_absolute(ref.substr(strlen(prefix)))) {
              llvm::SmallString<256> path(commands.front().Directory);
              llvm::sys::path::append(path, ref.substr(strlen(prefix)));
              flag = std::string(prefix) + std::string(path);
            }
          }
        }
      }
    }
    job.flags.insert(job.flags.end(), options.extra_flags.begin(),
                     options.extra_flags.end());
    jobs.push_back(std::move(job));
  }
  return true;
}

std::vector<FileAnalysis> runJobs(const std::vector<Job> &jobs,
                                  const AnalyzeOptions &options,
                                  const ProgressCallback &progress) {
  std::vector<FileAnalysis> results(jobs.size());
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
  std::mutex progress_mutex;
  auto worker = [&] {
    for (size_t i = next++; i < jobs.size(); i = next++) {
      results[i] = analyzeFile(jobs[i].file, jobs[i].flags, options);
      size_t finished = ++done;
      if (progress) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        progress(finished, jobs.size(), jobs[i].file);
      }
    }
  };
  unsigned count = std::max(1u, std::min<unsigned>(options.jobs, jobs.size()));
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < count; ++t)
    threads.emplace_back(worker);
  worker();
  for (std::thread &thread : threads)
    thread.join();
  return results;
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
  return candidate.score() >= min_score && !candidate.has_suppression();
}

bool analyze(const AnalyzeOptions &options, v1::AnalysisResult &result,
             std::string &error, const ProgressCallback &progress) {
  using google::protobuf::util::TimeUtil;
  *result.mutable_started_at() = TimeUtil::GetCurrentTime();
  result.set_tool_version(kVersion);
  std::vector<Job> jobs;
  if (!collectJobs(options, jobs, error))
    return false;

  std::vector<FileAnalysis> files = runJobs(jobs, options, progress);
  std::vector<v1::RaceCandidate> candidates;
  std::set<std::string> fingerprints;
  std::vector<v1::SyncSite> sync_sites;
  bool counts_tickets = false;
  for (FileAnalysis &file : files) {
    result.add_files_analyzed(file.file);
    for (v1::FileError &e : file.errors) {
      if (e.file().empty())
        e.set_file(file.file);
      *result.add_errors() = e;
    }
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
  }
  std::stable_sort(candidates.begin(), candidates.end(), ranksBefore);
  for (v1::RaceCandidate &candidate : candidates) {
    candidate.set_below_threshold(candidate.score() < options.min_score);
    *result.add_candidates() = std::move(candidate);
  }

  v1::AnalysisOptions *recorded = result.mutable_options();
  recorded->set_min_score(options.min_score);
  recorded->set_overflow(options.overflow == OverflowMode::Math ? "math" : "wrap");
  recorded->set_assume_warp_lockstep(options.assume_warp_lockstep);
  recorded->set_use_host_facts(options.host_facts);
  recorded->set_warp_size(options.warp_size);
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
