#include "runtime/report/SitePlan.h"

#include "common/ProjectPaths.h"

#include "proto/JsonCodec.h"

#include <fstream>
#include <sstream>

namespace gpurace::rt {

SitePlan::SitePlan(v1::InstrumentationPlan plan,
                   std::vector<v1::RaceCandidate> candidates)
    : plan_(std::move(plan)), candidates_(std::move(candidates)) {}

namespace {

std::string checkLocation(const v1::SourceLocation &l,
                          const std::string &field) {
  if (l.file().empty())
    return field + ".file: missing";
  if (l.line() == 0)
    return field + ".line: must be 1 or more";
  if (l.column() == 0)
    return field + ".column: must be 1 or more";
  if (l.end_line() < l.line() ||
      (l.end_line() == l.line() && l.end_column() < l.column()))
    return field + ".end_line/end_column: must not come before line/column";
  return "";
}

} // namespace

std::string validatePlan(const v1::InstrumentationPlan &plan) {
  for (int i = 0; i < plan.access_sites_size(); ++i) {
    const v1::AccessSite &s = plan.access_sites(i);
    std::string field = "access_sites[" + std::to_string(i) + "]";
    if (s.site_id().empty())
      return field + ".site_id: missing";
    if (s.kind() == v1::ACCESS_KIND_UNSPECIFIED)
      return field + ".kind: must be READ, WRITE or ATOMIC";
    if (std::string e = checkLocation(s.location(), field + ".location"); !e.empty())
      return e;
  }
  for (int i = 0; i < plan.sync_sites_size(); ++i) {
    const v1::SyncSite &s = plan.sync_sites(i);
    std::string field = "sync_sites[" + std::to_string(i) + "]";
    if (s.site_id().empty())
      return field + ".site_id: missing";
    if (s.kind() == v1::SYNC_KIND_UNSPECIFIED)
      return field + ".kind: missing";
    if (std::string e = checkLocation(s.location(), field + ".location"); !e.empty())
      return e;
  }
  return "";
}

std::optional<SitePlan> SitePlan::load(const std::string &path,
                                       std::string &error) {
  std::ifstream in(path);
  if (!in) {
    error = path + ": cannot read the plan file";
    return std::nullopt;
  }
  std::stringstream text;
  text << in.rdbuf();
  v1::InstrumentationPlan plan;
  std::vector<v1::RaceCandidate> candidates;
  std::string plan_error;
  if (!fromJson(text.str(), plan, plan_error)) {
    // Not a bare plan: perhaps the analyzer's whole result.
    v1::AnalysisResult result;
    std::string result_error;
    if (!fromJson(text.str(), result, result_error) || !result.has_plan()) {
      error = path + ": not an InstrumentationPlan: " + plan_error;
      return std::nullopt;
    }
    plan = result.plan();
    candidates.assign(result.candidates().begin(), result.candidates().end());
  }
  if (std::string problem = validatePlan(plan); !problem.empty()) {
    error = path + ": " + problem;
    return std::nullopt;
  }
  return SitePlan(std::move(plan), std::move(candidates));
}

void SitePlan::relativizeSourcePaths(const std::string &root) {
  gpurace::relativizeSourcePaths(plan_, root);
  for (v1::RaceCandidate &candidate : candidates_)
    gpurace::relativizeSourcePaths(candidate, root);
}

std::optional<v1::AccessSite> SitePlan::site(uint32_t index) const {
  if (index < uint32_t(plan_.access_sites_size()))
    return plan_.access_sites(int(index));
  index -= uint32_t(plan_.access_sites_size());
  if (index >= uint32_t(plan_.sync_sites_size()))
    return std::nullopt;
  const v1::SyncSite &sync = plan_.sync_sites(int(index));
  v1::AccessSite site;
  site.set_site_id(sync.site_id());
  *site.mutable_location() = sync.location();
  site.set_scope(sync.scope());
  site.set_expression(sync.expression());
  site.set_kernel(sync.kernel());
  return site;
}

bool SitePlan::watches(const std::string &kernel) const {
  if (plan_.kernels_size() == 0)
    return true;
  for (const std::string &k : plan_.kernels())
    if (k == kernel)
      return true;
  return false;
}

std::string SitePlan::candidateFingerprint(const std::string &first_id,
                                           const std::string &second_id,
                                           v1::RaceClass race_class) const {
  for (const v1::RaceCandidate &c : candidates_) {
    if (c.race_class() != race_class)
      continue;
    const std::string &a = c.first().site_id(), &b = c.second().site_id();
    if ((a == first_id && b == second_id) || (a == second_id && b == first_id))
      return c.fingerprint();
  }
  return "";
}

} // namespace gpurace::rt
