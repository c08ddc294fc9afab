#include "runtime/report/RaceReport.h"

#include <google/protobuf/util/time_util.h>

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace gpurace::rt {

namespace {

uint64_t fnv1a(const std::string &text, uint64_t hash = 0xcbf29ce484222325ull) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string siteKey(const v1::AccessSite &s) {
  std::string expression;
  for (char c : s.expression())
    if (!std::isspace(static_cast<unsigned char>(c)))
      expression += c;
  return s.location().file() + "\x1f" + s.location().function() + "\x1f" +
         expression + "\x1f" + v1::AccessKind_Name(s.kind());
}

v1::Dim3 toDim3(const Dims &d) {
  v1::Dim3 out;
  out.set_x(d.x);
  out.set_y(d.y);
  out.set_z(d.z);
  return out;
}

v1::ThreadCoord coord(uint64_t tid, const LaunchLayout &layout) {
  v1::ThreadCoord c;
  *c.mutable_thread_idx() = toDim3(layout.threadIdx(tid));
  *c.mutable_block_idx() = toDim3(layout.blockIdx(tid));
  return c;
}

} // namespace

std::string raceFingerprint(const v1::AccessSite &a, const v1::AccessSite &b,
                            v1::RaceClass race_class) {
  std::string ka = siteKey(a), kb = siteKey(b);
  if (kb < ka)
    std::swap(ka, kb);
  uint64_t h = fnv1a(ka + "\x1e" + kb + "\x1e" + v1::RaceClass_Name(race_class));
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return std::string("v1:") + hex;
}

v1::ObservedRace toObservedRace(const Race &race, const SitePlan &plan,
                                const LaunchLayout &layout) {
  v1::ObservedRace out;
  auto unknown = [](uint32_t index) {
    v1::AccessSite s;
    s.set_site_id("unknown-site-" + std::to_string(index));
    return s;
  };
  *out.mutable_first() = plan.site(race.first_site).value_or(unknown(race.first_site));
  *out.mutable_second() = plan.site(race.second_site).value_or(unknown(race.second_site));
  out.set_race_class(race.race_class);
  out.set_defect(race.defect);
  out.set_count(race.count);
  out.set_address(race.address);
  std::string fingerprint = plan.candidateFingerprint(
      out.first().site_id(), out.second().site_id(), race.race_class);
  out.set_fingerprint(fingerprint.empty()
                          ? raceFingerprint(out.first(), out.second(), race.race_class)
                          : fingerprint);
  v1::Witness *w = out.mutable_witness();
  *w->mutable_first() = coord(race.first_tid, layout);
  *w->mutable_second() = coord(race.second_tid, layout);
  *w->mutable_block_dim() = toDim3(layout.block());
  *w->mutable_grid_dim() = toDim3(layout.grid());
  return out;
}

namespace {

// What every report of a launch carries, checked or not, and its id.
v1::RuntimeReport launchReport(const LaunchLayout &layout,
                               const LaunchFacts &facts) {
  v1::RuntimeReport report;
  report.set_program(facts.program);
  v1::KernelLaunch *launch = report.mutable_launch();
  launch->set_kernel(facts.kernel);
  *launch->mutable_grid_dim() = toDim3(layout.grid());
  *launch->mutable_block_dim() = toDim3(layout.block());
  launch->set_launch_id(facts.launch_id);
  launch->set_cooperative(facts.cooperative);
  launch->set_stream(facts.stream);
  launch->set_dynamic_shared_bytes(facts.dynamic_shared_bytes);
  *report.mutable_device() = facts.device;
  *report.mutable_observed_at() = google::protobuf::util::TimeUtil::GetCurrentTime();
  uint64_t stamp = uint64_t(report.observed_at().nanos()) ^
                   (uint64_t(report.observed_at().seconds()) << 20);
  char id[40];
  std::snprintf(id, sizeof id, "%016llx-%llu",
                static_cast<unsigned long long>(fnv1a(facts.program + facts.kernel) ^ stamp),
                static_cast<unsigned long long>(facts.launch_id));
  report.set_report_id(id);
  return report;
}

} // namespace

v1::RuntimeReport buildReport(const Detector &detector, const SitePlan &plan,
                              const LaunchFacts &facts) {
  const LaunchLayout &layout = detector.layout();
  v1::RuntimeReport report = launchReport(layout, facts);
  for (const Race &race : detector.races())
    *report.add_races() = toObservedRace(race, plan, layout);
  DetectorStats stats = detector.stats();
  v1::Coverage *coverage = report.mutable_coverage();
  coverage->set_records_written(facts.records_written);
  coverage->set_records_lost(facts.records_lost);
  coverage->set_malformed_records(stats.malformed_records);
  coverage->set_shadow_evictions(stats.shadow_evictions);
  return report;
}

v1::RuntimeReport buildDisabledReport(const LaunchLayout &layout,
                                      const LaunchFacts &facts,
                                      const std::string &reason) {
  v1::RuntimeReport report = launchReport(layout, facts);
  report.mutable_coverage()->set_checking_disabled(true);
  report.mutable_coverage()->set_disabled_reason(reason);
  return report;
}

} // namespace gpurace::rt
