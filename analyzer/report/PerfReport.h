//===- PerfReport.h - how perf findings are named and ranked ----*- C++ -*-===//
//
// A perf finding's cost ratio (cost over the best the access could cost),
// the threshold it is shown at, its message and fingerprint, and the order
// reports list them in: worst first.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_REPORT_PERFREPORT_H
#define GPURACE_ANALYZER_REPORT_PERFREPORT_H

#include "gpurace/v1/analysis.pb.h"

#include <string>

namespace gpurace::analyzer {

// "bank-conflict", "uncoalesced": the check's name in rule ids and tags.
std::string perfKindName(v1::PerfKind kind);
double costRatio(const v1::PerfFinding &finding);
// The least ratio shown by default: 2 for an access in a loop, which a warp
// pays every iteration, 4 for one outside loops, paid once per thread.
// `min_ratio` > 0 replaces both.
double perfThreshold(const v1::PerfFinding &finding, double min_ratio);
// Shown without --all: not a proof, at or above the threshold.
bool isPerfFinding(const v1::PerfFinding &finding);
// Hashes the site id, sets fingerprint, message and below_threshold (also
// set where no launch fixed the block's shape).
void finalizePerfFinding(v1::PerfFinding &finding, double min_ratio);
bool perfRanksBefore(const v1::PerfFinding &a, const v1::PerfFinding &b);

} // namespace gpurace::analyzer

#endif
