#include "runtime/harness/HarnessRun.h"

#include "runtime/harness/ChildProcess.h"
#include "runtime/harness/TraceReader.h"

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace gpurace::rt {

namespace {

constexpr int kSkipExitStatus = 77; // CpuLaunch.h
constexpr unsigned kToolTimeout = 300;

std::string firstLineWith(const std::string &text, const std::string &needle) {
  size_t at = text.find(needle);
  if (at == std::string::npos)
    at = 0;
  std::string line = text.substr(at, text.find('\n', at) - at);
  return line.empty() ? "(no message)" : line;
}

HarnessOutcome stop(HarnessOutcome::Status status, const std::string &reason) {
  HarnessOutcome outcome;
  outcome.status = status;
  outcome.reason = reason;
  return outcome;
}

// Launch traces in launch order.
std::vector<fs::path> traces(const fs::path &dir) {
  std::vector<std::pair<uint64_t, fs::path>> found;
  for (const auto &entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("launch-", 0) == 0 && entry.path().extension() == ".trace")
      found.push_back({std::stoull(name.substr(7)), entry.path()});
  }
  std::sort(found.begin(), found.end());
  std::vector<fs::path> paths;
  for (auto &[id, path] : found)
    paths.push_back(path);
  return paths;
}

// What a run that went through is worth knowing for: planned sites the
// instrumenter could not find (they recorded nothing) and a failing exit.
std::string notes(const std::string &instrument_err, int exit_code) {
  size_t unmatched = 0;
  for (size_t at = instrument_err.find("matches no expression"); at != std::string::npos;
       at = instrument_err.find("matches no expression", at + 1))
    ++unmatched;
  std::string text;
  if (unmatched)
    text = std::to_string(unmatched) + " planned site(s) match no expression and were not recorded";
  if (exit_code != 0)
    text += (text.empty() ? "" : "; ") + std::string("the program exited with ") +
            std::to_string(exit_code);
  return text;
}

} // namespace

HarnessOutcome runOnHarness(const HarnessJob &job) {
  fs::path work(job.work_dir);
  fs::path trace_dir = work / "traces";
  std::error_code ec;
  fs::create_directories(trace_dir, ec);
  std::string source = (work / "program.cu").string();
  std::string binary = (work / "program").string();

  ChildResult instrumented =
      runChild({job.gpurace, "instrument", "--cpu-harness", "--plan", job.plan, job.file,
                "-o", source},
               {}, (work / "instrument.out").string(), kToolTimeout);
  if (instrumented.exit_code != 0)
    return stop(HarnessOutcome::Failed,
                "gpurace instrument failed: " + firstLineWith(instrumented.err, "error"));

  std::string include = job.source_dir + "/runtime/harness/include";
  ChildResult built = runChild(
      {job.compiler, "-std=c++17", "-O1", "-pthread", "-w", "-I", include, "-I",
       job.source_dir, "-I", fs::path(job.file).parent_path().string(), "-include",
       "cuda_runtime.h", "-x", "c++", source, "-o", binary},
      {}, (work / "compile.out").string(), kToolTimeout);
  if (built.exit_code != 0)
    return stop(HarnessOutcome::Skipped, "does not compile against the harness: " +
                                             firstLineWith(built.err, "error"));

  std::vector<std::string> env = job.env;
  env.push_back("GPURACE_TRACE_DIR=" + trace_dir.string());
  ChildResult ran = runChild({binary}, env, (work / "run.out").string(), job.timeout_s);
  if (ran.timed_out)
    return stop(HarnessOutcome::Skipped,
                "did not finish within " + std::to_string(job.timeout_s) + " s");
  if (ran.exit_code == kSkipExitStatus)
    return stop(HarnessOutcome::Skipped, firstLineWith(ran.err, "gpurace-cpu: skipped: ")
                                             .substr(std::string("gpurace-cpu: skipped: ").size()));
  if (ran.signal != 0)
    return stop(HarnessOutcome::Skipped,
                "crashed on the harness with signal " + std::to_string(ran.signal));

  HarnessOutcome outcome;
  outcome.status = HarnessOutcome::Ran;
  outcome.reason = notes(instrumented.err, ran.exit_code);
  std::string error;
  auto plan = SitePlan::load(job.plan, error);
  if (!plan)
    return stop(HarnessOutcome::Failed, error);
  for (const fs::path &trace : traces(trace_dir)) {
    auto summary = readTrace(trace.string(), *plan, job.file, error);
    if (!summary)
      return stop(HarnessOutcome::Failed, error);
    outcome.reports.push_back(summary->report);
  }
  return outcome;
}

} // namespace gpurace::rt
