#include "analyzer/report/InstrumentationPlan.h"

#include "analyzer/Analyzer.h"

#include <set>
#include <string>

namespace gpurace::analyzer {

v1::InstrumentationPlan buildPlan(const v1::AnalysisResult &result,
                                  const std::vector<v1::SyncSite> &sync_sites,
                                  double min_score) {
  v1::InstrumentationPlan plan;
  plan.set_min_score(min_score);
  std::set<std::string> kernels, sites, syncs;
  for (const v1::RaceCandidate &candidate : result.candidates()) {
    if (!isFinding(candidate, min_score))
      continue;
    if (kernels.insert(candidate.kernel()).second)
      plan.add_kernels(candidate.kernel());
    if (candidate.race_class() == v1::RACE_CLASS_BARRIER_DIVERGENCE)
      continue; // the barrier is among the kernel's sync sites
    for (const v1::AccessSite &site : {candidate.first(), candidate.second()}) {
      if (sites.insert(site.site_id()).second) {
        v1::AccessSite *planned = plan.add_access_sites();
        *planned = site;
        planned->clear_excerpt();
      }
    }
  }
  for (const v1::SyncSite &sync : sync_sites)
    if (kernels.count(sync.kernel()) && syncs.insert(sync.site_id()).second)
      *plan.add_sync_sites() = sync;
  return plan;
}

} // namespace gpurace::analyzer
