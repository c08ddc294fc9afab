//===- SitePlan.h - the instrumentation plan, indexed as records name it -*- C++ -*-===//
//
// Records name sites by number: access sites first, in plan order, then sync
// sites. The instrumenter and the report both use this one numbering.
//
// A plan file is either an InstrumentationPlan or a whole AnalysisResult
// (whose candidates then lend their fingerprints to confirmed races).
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_REPORT_SITEPLAN_H
#define GPURACE_RUNTIME_REPORT_SITEPLAN_H

#include "gpurace/v1/analysis.pb.h"

#include <optional>
#include <string>

namespace gpurace::rt {

class SitePlan {
public:
  SitePlan() = default;
  explicit SitePlan(v1::InstrumentationPlan plan,
                    std::vector<v1::RaceCandidate> candidates = {});

  // Reads and validates a plan file. On failure returns nullopt and sets
  // `error` to "FILE: FIELD: problem".
  static std::optional<SitePlan> load(const std::string &path,
                                      std::string &error);

  // Names the sites' files relative to `root` where they lie inside it
  // (a plan made with absolute paths, or by an older gpurace).
  void relativizeSourcePaths(const std::string &root);

  const v1::InstrumentationPlan &plan() const { return plan_; }
  uint32_t accessIndex(int i) const { return uint32_t(i); }
  uint32_t syncIndex(int i) const {
    return uint32_t(plan_.access_sites_size() + i);
  }
  uint32_t size() const {
    return uint32_t(plan_.access_sites_size() + plan_.sync_sites_size());
  }
  // The site a record names, as an AccessSite (a sync site's location and
  // expression are carried over); null when out of range.
  std::optional<v1::AccessSite> site(uint32_t index) const;
  bool watches(const std::string &kernel) const;
  // The analyzer's fingerprint for this pair of sites and class, if it
  // reported one.
  std::string candidateFingerprint(const std::string &first_id,
                                   const std::string &second_id,
                                   v1::RaceClass race_class) const;

private:
  v1::InstrumentationPlan plan_;
  std::vector<v1::RaceCandidate> candidates_;
};

// Checks the fields the instrumenter and the detector rely on; returns the
// first problem as "FIELD: problem", or an empty string.
std::string validatePlan(const v1::InstrumentationPlan &plan);

} // namespace gpurace::rt

#endif
