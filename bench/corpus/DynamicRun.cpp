//===- DynamicRun.cpp - the dynamic column on the CPU harness -------------===//
#include "bench/corpus/DynamicRun.h"

#include "proto/JsonCodec.h"
#include "runtime/harness/HarnessRun.h"

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace gpurace::corpus {

namespace {

bool writeText(const fs::path &path, const std::string &text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  out.close();
  return bool(out);
}

// Reports of an earlier run must not be scored as this run's.
void removeOldReports(const fs::path &folder, const std::string &stem) {
  std::error_code ec;
  for (const auto &entry : fs::directory_iterator(folder, ec))
    if (entry.path().filename().string().rfind(stem + ".", 0) == 0 &&
        entry.path().extension() == ".json")
      fs::remove(entry.path(), ec);
}

DynamicResult failed(const std::string &reason) {
  DynamicResult result;
  result.reason = reason;
  return result;
}

} // namespace

std::string kindName(DynamicResult::Kind kind) {
  switch (kind) {
  case DynamicResult::Ran:
    return "ran";
  case DynamicResult::NothingPlanned:
    return "nothing planned";
  case DynamicResult::Skipped:
    return "skipped";
  case DynamicResult::Failed:
    return "failed";
  }
  return "";
}

DynamicResult runDynamic(const CorpusFile &file, const v1::AnalysisResult &analysis,
                         const DynamicOptions &options) {
  fs::path folder = fs::path(options.reports_dir) / file.category;
  std::string stem = fs::path(file.path).stem().string();
  std::error_code ec;
  fs::create_directories(folder, ec);
  removeOldReports(folder, stem);
  const v1::InstrumentationPlan &plan = analysis.plan();
  if (plan.access_sites_size() == 0 && plan.sync_sites_size() == 0) {
    v1::RuntimeReport report;
    report.set_program(file.path);
    report.mutable_coverage()->set_checking_disabled(true);
    report.mutable_coverage()->set_disabled_reason("the analysis planned no site to watch");
    if (!writeText(folder / (stem + ".json"), toJson(report) + "\n"))
      return failed("cannot write a report under " + folder.string());
    DynamicResult result;
    result.kind = DynamicResult::NothingPlanned;
    return result;
  }
  fs::path work = folder / (stem + ".work");
  fs::remove_all(work, ec);
  fs::create_directories(work, ec);
  rt::HarnessJob job;
  job.gpurace = options.gpurace;
  job.compiler = options.compiler;
  job.source_dir = options.source_dir;
  job.plan = (work / "analysis.json").string();
  job.file = file.path;
  job.work_dir = work.string();
  job.env = options.env;
  job.timeout_s = options.timeout_s;
  if (!writeText(job.plan, toJson(analysis) + "\n"))
    return failed("cannot write " + job.plan);
  rt::HarnessOutcome outcome = rt::runOnHarness(job);
  DynamicResult result;
  result.reason = outcome.reason;
  result.kind = outcome.status == rt::HarnessOutcome::Ran       ? DynamicResult::Ran
                : outcome.status == rt::HarnessOutcome::Skipped ? DynamicResult::Skipped
                                                                : DynamicResult::Failed;
  if (result.kind != DynamicResult::Ran)
    return result; // the work directory stays for a look at why
  for (size_t i = 0; i < outcome.reports.size(); ++i)
    if (!writeText(folder / (stem + "." + std::to_string(i) + ".json"),
                   toJson(outcome.reports[i]) + "\n"))
      return failed("cannot write a report under " + folder.string());
  result.launches = outcome.reports.size();
  if (result.launches == 0)
    return failed("the program launched no kernel");
  fs::remove_all(work, ec);
  return result;
}

} // namespace gpurace::corpus
