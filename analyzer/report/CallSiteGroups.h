//===- CallSiteGroups.h - one finding per pair of source accesses -*- C++ -*-===//
//
// A device function called at several places of a kernel is inlined at each
// call, so one pair of accesses in its body gives a candidate per pair of
// calls: a `store(a, i, v)` helper called eight times can give dozens of
// warnings at the same two lines. Reports show the best-ranked candidate of
// such a group and name the other calls under it; JSON keeps them all.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_REPORT_CALLSITEGROUPS_H
#define GPURACE_ANALYZER_REPORT_CALLSITEGROUPS_H

#include "gpurace/v1/analysis.pb.h"

#include <functional>
#include <string>
#include <vector>

namespace gpurace::analyzer {

struct CallSiteGroup {
  // Indices into the candidates, in their order: the first is shown.
  std::vector<int> members;
};

// Groups the candidates `shown` accepts by kernel, race class, defect and the
// source positions of both accesses; candidates that differ only in the calls
// leading to the accesses share a group. Groups come in the order of their
// first member.
std::vector<CallSiteGroup>
groupByCallSites(const google::protobuf::RepeatedPtrField<v1::RaceCandidate> &candidates,
                 const std::function<bool(const v1::RaceCandidate &)> &shown);

// "helper.cu:9 and helper.cu:11": where the kernel calls into each access
// (the access itself when it is in the kernel's own body).
std::string callPairText(const v1::RaceCandidate &candidate);

} // namespace gpurace::analyzer

#endif
