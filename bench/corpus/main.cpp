//===- main.cpp - gpurace-corpus-score ------------------------------------===//
//
// Runs `gpurace analyze` over the race corpus with and without host facts,
// optionally reads runtime reports for dynamic confirmation, and prints
// true races found, false negatives and false positives per category in
// the layout of HGRD's Table 3. With --baseline it fails when the totals
// regress.
//
//===----------------------------------------------------------------------===//
#include "bench/corpus/AnalyzerRun.h"
#include "bench/corpus/CorpusAnnotations.h"
#include "bench/corpus/DynamicRun.h"
#include "bench/corpus/Matching.h"
#include "bench/corpus/PerfRun.h"
#include "bench/corpus/RepairRun.h"
#include "bench/corpus/ScoreTable.h"
#include "proto/JsonCodec.h"

#include "gpurace/v1/runtime.pb.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;
using namespace gpurace::corpus;

namespace {

struct Options {
  std::string corpus = GPURACE_CORPUS_DIR;
  std::vector<std::string> files;
  std::string gpurace;
  std::string kernel_only_flag = "--host-facts=off";
  std::string runtime_reports;
  DynamicOptions dynamic;
  std::string baseline;
  std::string write_baseline;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  bool check_annotations = false;
  bool details = false;
  bool host_facts_never_worse = false;
  // --repair: run `gpurace fix` on the racy programs instead of scoring.
  bool repair = false;
  std::string nvcc;
  // --perf: check the files' expect-perf costs instead of scoring races.
  bool perf = false;
};

// The gpurace program installed next to this one.
std::string defaultGpurace() {
  std::error_code error;
  fs::path self = fs::read_symlink("/proc/self/exe", error);
  return (error ? fs::path("gpurace") : self.parent_path() / "gpurace").string();
}

// The file's category must be its directory, so that the table and the
// tree agree.
void checkDirectory(const CorpusFile &file,
                    std::vector<AnnotationError> &errors) {
  std::string directory = fs::path(file.path).parent_path().filename().string();
  if (!file.category.empty() && file.category != directory)
    errors.push_back({file.path, 1, "category '" + file.category +
                                        "' differs from its directory '" +
                                        directory + "'"});
}

std::vector<CorpusFile> loadCorpus(const Options &options,
                                   std::vector<AnnotationError> &errors) {
  std::vector<std::string> paths =
      options.files.empty() ? findCorpusFiles(options.corpus) : options.files;
  std::vector<CorpusFile> files;
  for (const std::string &path : paths) {
    files.push_back(loadCorpusFile(path, errors));
    checkDirectory(files.back(), errors);
  }
  return files;
}

// Runs `work(i)` for i in [0, count) on `jobs` threads.
template <typename Work> void parallelFor(size_t count, unsigned jobs, Work work) {
  std::atomic<size_t> next{0};
  std::vector<std::thread> threads;
  for (unsigned j = 0; j < std::min<size_t>(jobs, count); ++j)
    threads.emplace_back([&] {
      for (size_t i = next++; i < count; i = next++)
        work(i);
    });
  for (std::thread &thread : threads)
    thread.join();
}

struct StaticRun {
  AnalyzerOutcome kernel_only, host_facts;
};

std::vector<StaticRun> runStatic(const std::vector<CorpusFile> &files,
                                 const Options &options) {
  std::vector<StaticRun> runs(files.size());
  parallelFor(2 * files.size(), options.jobs, [&](size_t job) {
    const CorpusFile &file = files[job / 2];
    if (job % 2 == 0)
      runs[job / 2].kernel_only =
          runAnalyzer(options.gpurace, {options.kernel_only_flag}, file.path, file.companions);
    else
      runs[job / 2].host_facts = runAnalyzer(options.gpurace, {}, file.path, file.companions);
  });
  return runs;
}

// The runtime reports for one corpus file: <dir>/<category>/<stem>*.json.
// Returns false when there are none; `error` is set when one is unreadable.
bool loadRuntimeReports(const std::string &dir, const CorpusFile &file,
                        std::vector<gpurace::v1::RuntimeReport> &reports,
                        std::string &error) {
  fs::path folder = fs::path(dir) / file.category;
  std::string stem = fs::path(file.path).stem().string();
  std::error_code ignored;
  for (const auto &entry : fs::directory_iterator(folder, ignored)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(stem + ".", 0) != 0 || entry.path().extension() != ".json")
      continue;
    std::ifstream in(entry.path());
    std::ostringstream text;
    text << in.rdbuf();
    gpurace::v1::RuntimeReport report;
    std::string parse_error;
    if (!gpurace::fromJson(text.str(), report, parse_error))
      error = entry.path().string() + ": " + parse_error;
    reports.push_back(report);
  }
  return !reports.empty();
}

// Runs every file whose host-facts analysis succeeded on the CPU harness,
// writing reports where scoreDynamic reads them. Every file that did not
// run is listed with the reason; failures count as tool errors.
std::vector<DynamicResult> runDynamicColumn(const std::vector<CorpusFile> &files,
                                            const std::vector<StaticRun> &runs,
                                            const Options &options) {
  std::vector<DynamicResult> results(files.size());
  parallelFor(files.size(), options.jobs, [&](size_t i) {
    if (runs[i].host_facts.ok)
      results[i] = runDynamic(files[i], runs[i].host_facts.result, options.dynamic);
    else
      results[i].reason = "no host-facts analysis to plan from";
  });
  std::map<DynamicResult::Kind, unsigned> counts;
  for (size_t i = 0; i < files.size(); ++i) {
    ++counts[results[i].kind];
    if (results[i].kind == DynamicResult::Skipped || results[i].kind == DynamicResult::Failed)
      std::cout << files[i].path << ": dynamic: " << kindName(results[i].kind) << ": "
                << results[i].reason << "\n";
    else if (options.details && !results[i].reason.empty())
      std::cout << files[i].path << ": dynamic: " << results[i].reason << "\n";
  }
  std::cout << "CPU harness: " << counts[DynamicResult::Ran] << " ran, "
            << counts[DynamicResult::NothingPlanned] << " with nothing planned, "
            << counts[DynamicResult::Skipped] << " skipped, " << counts[DynamicResult::Failed]
            << " failed\n";
  return results;
}

void report(const Options &options, const CorpusFile &file, Mode mode,
            const std::optional<FileScore> &score, const std::string &error) {
  if (!score) {
    std::cerr << file.path << ": " << modeKey(mode) << ": tool error: " << error
              << "\n";
    return;
  }
  if (!options.details)
    return;
  for (const std::string &detail : score->details)
    std::cout << file.path << ": " << modeKey(mode) << ": " << detail << "\n";
}

std::optional<FileScore> scoreMode(const Options &options, ScoreTable &table,
                                   const CorpusFile &file, Mode mode,
                                   const AnalyzerOutcome &outcome) {
  std::optional<FileScore> score;
  if (outcome.ok)
    score = scoreFile(file, fromAnalysis(outcome.result));
  report(options, file, mode, score, outcome.error);
  table.add(file.category, mode, score);
  return score;
}

void scoreDynamic(const Options &options, ScoreTable &table,
                  const CorpusFile &file, const DynamicResult *result) {
  if (result && result->kind == DynamicResult::Failed) {
    report(options, file, Mode::Dynamic, std::nullopt, result->reason);
    table.add(file.category, Mode::Dynamic, std::nullopt);
    return;
  }
  std::vector<gpurace::v1::RuntimeReport> reports;
  std::string error;
  if (!loadRuntimeReports(options.runtime_reports, file, reports, error))
    return;
  std::optional<FileScore> score;
  if (error.empty())
    score = scoreFile(file, fromRuntime(reports));
  report(options, file, Mode::Dynamic, score, error);
  table.add(file.category, Mode::Dynamic, score);
}

int finish(const Options &options, const ScoreTable &table, bool host_facts_worse) {
  table.print(std::cout);
  if (host_facts_worse && options.host_facts_never_worse)
    return 1;
  std::string error;
  if (!options.write_baseline.empty() &&
      !writeBaseline(options.write_baseline, table.total(), error)) {
    std::cerr << "gpurace-corpus-score: error: " << error << "\n";
    return 1;
  }
  if (options.baseline.empty())
    return 0;
  Baseline baseline;
  if (!readBaseline(options.baseline, baseline, error)) {
    std::cerr << "gpurace-corpus-score: error: " << error << "\n";
    return 1;
  }
  std::vector<std::string> regressions =
      compareWithBaseline(baseline, table.total());
  for (const std::string &regression : regressions)
    std::cerr << "regression against " << options.baseline << ": "
              << regression << "\n";
  return regressions.empty() ? 0 : 1;
}

template <typename T> T median(std::vector<T> values) {
  if (values.empty())
    return T{};
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// What `gpurace fix` does to the racy programs (and those with a
// divergent barrier): how many it repairs completely, with which kinds of
// change, how many edits, how long.
int runRepairs(const Options &options, const std::vector<CorpusFile> &files) {
  std::vector<const CorpusFile *> racy;
  for (const CorpusFile &file : files)
    if (!file.races.empty() || !file.divergences.empty())
      racy.push_back(&file);
  std::vector<RepairOutcome> outcomes(racy.size());
  parallelFor(racy.size(), options.jobs, [&](size_t i) {
    outcomes[i] = repairCopy(options.gpurace, options.nvcc, racy[i]->path, racy[i]->companions);
  });
  std::map<gpurace::v1::RepairKind, unsigned> by_kind;
  unsigned failures = 0, complete = 0, findings = 0, unrepaired = 0, dropped = 0;
  std::vector<size_t> edits;
  std::vector<double> seconds;
  for (size_t i = 0; i < racy.size(); ++i) {
    const RepairOutcome &outcome = outcomes[i];
    if (!outcome.error.empty()) {
      ++failures;
      std::cerr << racy[i]->path << ": " << outcome.error << "\n";
      continue;
    }
    seconds.push_back(outcome.seconds);
    dropped += outcome.result.changes_dropped();
    size_t program_edits = 0, left = 0;
    for (const gpurace::v1::Repair &repair : outcome.result.repairs()) {
      ++findings;
      program_edits += repair.edits_size();
      if (!repair.verified()) {
        ++left;
        if (options.details)
          std::cout << racy[i]->path << ": not repaired: " << repair.unrepaired_reason() << "\n";
      } else {
        ++by_kind[repair.kind()];
      }
    }
    unrepaired += left;
    if (left == 0 && outcome.result.repairs_size() > 0) {
      ++complete;
      edits.push_back(program_edits);
    }
  }
  std::cout << "racy programs: " << racy.size() << ", findings: " << findings << "\n"
            << "programs repaired completely: " << complete << "\n"
            << "findings repaired: " << by_kind[gpurace::v1::REPAIR_KIND_ATOMIC] << " by an atomic, "
            << by_kind[gpurace::v1::REPAIR_KIND_BARRIER] << " by a barrier, "
            << by_kind[gpurace::v1::REPAIR_KIND_SCOPE] << " by a wider scope, "
            << by_kind[gpurace::v1::REPAIR_KIND_FENCE] << " by a fence, "
            << by_kind[gpurace::v1::REPAIR_KIND_GRID_SYNC] << " by a grid sync, "
            << by_kind[gpurace::v1::REPAIR_KIND_BARRIER_MOVED] << " by a barrier moved out of a "
            << "divergent branch, "
            << by_kind[gpurace::v1::REPAIR_KIND_SHARED]
            << " by another finding's change; not repaired: " << unrepaired << "\n"
            << "changes taken out again as later ones made them unneeded: " << dropped << "\n"
            << "edits per repaired program: median " << median(edits) << ", max "
            << (edits.empty() ? 0 : *std::max_element(edits.begin(), edits.end())) << "\n"
            << "fix time per program: median " << median(seconds) << " s, max "
            << (seconds.empty() ? 0 : *std::max_element(seconds.begin(), seconds.end()))
            << " s\n"
            << "checks failed (re-analysis or nvcc): " << failures << "\n";
  return failures == 0 ? 0 : 1;
}

std::string costText(gpurace::v1::PerfKind kind, unsigned cost, unsigned best) {
  return kind == gpurace::v1::PERF_KIND_BANK_CONFLICT
             ? "banks " + std::to_string(cost)
             : "sectors " + std::to_string(cost) + "/" + std::to_string(best);
}

// " free-when pitch = 33, free-when n = 1" for the table; empty when none.
std::string freeWhenText(const std::vector<std::string> &conditions) {
  std::string text;
  for (const std::string &c : conditions)
    if (!c.empty())
      text += (text.empty() ? " free-when " : ", free-when ") + c;
  return text;
}

int runPerf(const Options &options, const std::vector<CorpusFile> &files) {
  std::vector<const CorpusFile *> annotated;
  for (const CorpusFile &file : files)
    if (!file.perf.empty())
      annotated.push_back(&file);
  std::vector<PerfFileRun> runs(annotated.size());
  parallelFor(annotated.size(), options.jobs, [&](size_t i) {
    runs[i] = runPerfExpectations(options.gpurace, *annotated[i]);
  });
  unsigned expected = 0, met = 0, unexpected = 0, errors = 0;
  double plain = 0, perf = 0;
  std::cout << "| access | expected | found |\n|---|---|---|\n";
  for (size_t i = 0; i < annotated.size(); ++i) {
    const PerfFileRun &run = runs[i];
    std::string name = fs::path(annotated[i]->path).parent_path().filename().string() + "/" +
                       fs::path(annotated[i]->path).filename().string();
    if (!run.error.empty()) {
      std::cout << "| " << name << " | tool error: " << run.error << " | |\n";
      ++errors;
      continue;
    }
    plain += run.seconds_plain;
    perf += run.seconds_perf;
    for (const PerfRow &row : run.rows) {
      ++expected;
      met += row.matches();
      std::cout << "| " << name << ":" << row.expected.line << " | "
                << costText(row.expected.kind, row.expected.cost, row.expected.best)
                << freeWhenText({row.expected.free_when}) << " | "
                << (row.found ? costText(row.expected.kind, row.cost, row.best) +
                                    (row.proved ? " (proved)" : "") + freeWhenText(row.free_when)
                              : std::string("none"))
                << (row.matches() ? "" : " MISMATCH") << " |\n";
    }
    for (const std::string &stray : run.unexpected) {
      std::cout << "| " << stray << " | none | unexpected |\n";
      ++unexpected;
    }
  }
  std::printf("perf expectations met: %u of %u; unexpected findings: %u; tool errors: %u\n", met,
              expected, unexpected, errors);
  if (plain > 0)
    std::printf("analyze --perf: %.1f s against %.1f s without (%.2fx), %zu files\n", perf,
                plain, perf / plain, annotated.size());
  return met == expected && unexpected == 0 && errors == 0 ? 0 : 1;
}

int run(const Options &options) {
  std::vector<AnnotationError> errors;
  std::vector<CorpusFile> files = loadCorpus(options, errors);
  for (const AnnotationError &error : errors)
    std::cerr << error.path << ":" << error.line << ": error: "
              << error.message << "\n";
  if (!errors.empty())
    return 1;
  if (options.check_annotations) {
    std::cout << files.size() << " corpus files, annotations well-formed\n";
    return 0;
  }
  if (options.repair)
    return runRepairs(options, files);
  if (options.perf)
    return runPerf(options, files);
  ScoreTable table;
  std::vector<StaticRun> runs = runStatic(files, options);
  std::vector<DynamicResult> dynamic;
  if (!options.dynamic.reports_dir.empty())
    dynamic = runDynamicColumn(files, runs, options);
  bool host_facts_worse = false;
  for (size_t i = 0; i < files.size(); ++i) {
    const CorpusFile &file = files[i];
    table.addFile(file.category, file.races.size() + file.divergences.size());
    auto alone = scoreMode(options, table, file, Mode::KernelOnly, runs[i].kernel_only);
    auto hosted = scoreMode(options, table, file, Mode::HostFacts, runs[i].host_facts);
    // Host facts only ever rule pairs out: more false alarms with them
    // than without is a defect of the host analysis.
    if (alone && hosted && hosted->false_positives > alone->false_positives) {
      host_facts_worse = true;
      std::cerr << file.path << ": host facts give " << hosted->false_positives
                << " false positives, the kernel-only analysis " << alone->false_positives
                << "\n";
    }
    if (!options.runtime_reports.empty())
      scoreDynamic(options, table, file, dynamic.empty() ? nullptr : &dynamic[i]);
  }
  return finish(options, table, host_facts_worse);
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  options.gpurace = defaultGpurace();
  options.dynamic.compiler = GPURACE_HOST_CXX;
  options.dynamic.source_dir = GPURACE_SOURCE_DIR;
  CLI::App app("Scores gpurace against the annotated race corpus.",
               "gpurace-corpus-score");
  app.add_option("files", options.files,
                 "Corpus files to score (default: every .cu under --corpus)");
  app.add_option("--corpus", options.corpus, "The corpus directory")
      ->capture_default_str();
  app.add_option("--gpurace", options.gpurace, "The gpurace program")
      ->capture_default_str();
  app.add_option("-j,--jobs", options.jobs, "Analyzer runs in parallel")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--kernel-only-flag", options.kernel_only_flag,
                 "The analyze flag that turns host facts off")
      ->capture_default_str();
  app.add_option("--runtime-reports", options.runtime_reports,
                 "Directory of RuntimeReport JSON files, "
                 "<category>/<file stem>*.json, for the dynamic column")
      ->check(CLI::ExistingDirectory);
  app.add_option("--baseline", options.baseline,
                 "Exit 1 when the totals regress against this baseline")
      ->check(CLI::ExistingFile);
  app.add_option("--write-baseline", options.write_baseline,
                 "Record the current totals as a baseline");
  app.add_flag("--check-annotations", options.check_annotations,
               "Only check that every file's annotations are well-formed");
  app.add_flag("--host-facts-never-worse", options.host_facts_never_worse,
               "Exit 1 when host facts give more false positives than the kernel-only "
               "analysis on any file");
  app.add_flag("--details", options.details,
               "Print every missed and unexpected race per file");
  app.add_option("--dynamic-cpu", options.dynamic.reports_dir,
                 "Run each file's host-facts findings on the CPU harness, write the "
                 "RuntimeReports under this directory and score them as the dynamic column");
  app.add_option("--host-cxx", options.dynamic.compiler,
                 "The host C++ compiler that builds programs for the CPU harness")
      ->capture_default_str();
  app.add_option("--harness-timeout", options.dynamic.timeout_s,
                 "Seconds one program may run on the CPU harness")
      ->capture_default_str();
  app.add_option("--harness-env", options.dynamic.env,
                 "NAME=value for programs on the CPU harness, e.g. "
                 "GPURACE_CPU_MAX_THREADS=1048576 (repeat for several)")
      ->allow_extra_args(false);
  app.add_flag("--repair", options.repair,
               "Run `gpurace fix --apply` on a copy of each racy program instead of scoring, "
               "check that re-analysing the copy finds only what fix left unrepaired, and "
               "print the repair figures");
  app.add_option("--nvcc", options.nvcc,
                 "With --repair: also compile each repaired copy with this nvcc");
  app.add_flag("--perf", options.perf,
               "Check the expect-perf annotations with `gpurace analyze --perf` instead of "
               "scoring races, and time analyze with --perf against analyze alone");
  CLI11_PARSE(app, argc, argv);
  options.dynamic.gpurace = fs::absolute(options.gpurace).string();
  if (!options.dynamic.reports_dir.empty()) {
    std::error_code error;
    fs::create_directories(options.dynamic.reports_dir, error);
    options.dynamic.reports_dir = fs::absolute(options.dynamic.reports_dir).string();
    options.runtime_reports = options.dynamic.reports_dir;
  }
  return run(options);
}
