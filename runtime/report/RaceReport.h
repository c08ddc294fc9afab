//===- RaceReport.h - detector races as RuntimeReport messages --*- C++ -*-===//
//
// Turns what the detector found in one launch into the RuntimeReport a user,
// a file or the server sees: both source sites from the plan, the class and
// defect, one concrete thread pair with CUDA coordinates, the address, and
// the coverage (records written and lost) the verdict rests on.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_REPORT_RACEREPORT_H
#define GPURACE_RUNTIME_REPORT_RACEREPORT_H

#include "gpurace/v1/runtime.pb.h"
#include "runtime/detector/Detector.h"
#include "runtime/report/SitePlan.h"

namespace gpurace::rt {

// "v1:<16 hex>" over the unordered pair of (file, function, expression
// without blanks, kind) and the class; no addresses, threads or lines.
std::string raceFingerprint(const v1::AccessSite &a, const v1::AccessSite &b,
                            v1::RaceClass race_class);

v1::ObservedRace toObservedRace(const Race &race, const SitePlan &plan,
                                const LaunchLayout &layout);

struct LaunchFacts {
  std::string program;
  std::string kernel;
  uint64_t launch_id = 0;
  bool cooperative = false;
  uint64_t stream = 0;
  uint32_t dynamic_shared_bytes = 0;
  v1::DeviceInfo device;
  uint64_t records_written = 0;
  uint64_t records_lost = 0;
};

v1::RuntimeReport buildReport(const Detector &detector, const SitePlan &plan,
                              const LaunchFacts &facts);

// The report of a launch that was not checked: no races, and the coverage
// says why, so that a missing verdict is never mistaken for a clean one.
v1::RuntimeReport buildDisabledReport(const LaunchLayout &layout,
                                      const LaunchFacts &facts,
                                      const std::string &reason);

} // namespace gpurace::rt

#endif
