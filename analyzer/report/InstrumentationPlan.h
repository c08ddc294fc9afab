//===- InstrumentationPlan.h - the sites worth watching ---------*- C++ -*-===//
#ifndef GPURACE_ANALYZER_REPORT_INSTRUMENTATIONPLAN_H
#define GPURACE_ANALYZER_REPORT_INSTRUMENTATIONPLAN_H

#include "gpurace/v1/analysis.pb.h"

#include <vector>

namespace gpurace::analyzer {

// The access sites of every finding, and the synchronization of the kernels
// they are in, so the runtime watches only what the analysis flagged.
v1::InstrumentationPlan buildPlan(const v1::AnalysisResult &result,
                                  const std::vector<v1::SyncSite> &sync_sites,
                                  double min_score);

} // namespace gpurace::analyzer

#endif
